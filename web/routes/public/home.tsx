import type { ReactNode } from 'react';
import { CATEGORIES, type CategorySlug } from '../../../shared/categories';
import { AppLink } from '../../components/ui/app-link';
import { buttonClass } from '../../components/ui/button';
import { APP_NAME } from '../../lib/app-name';

export function meta() {
  return [
    { title: `${APP_NAME} · Servicios digitales y para celulares con saldo prepago` },
    {
      name: 'description',
      content: `${APP_NAME} es el panel para revendedores de servicios IMEI, desbloqueos, licencias, streaming, gaming y redes sociales, pagados con saldo prepago en dólares.`,
    },
  ];
}

const CATEGORY_DESCRIPTIONS: Record<CategorySlug, string> = {
  IMEI: 'Consulta el operador, el estado de bloqueo y la garantía de un equipo a partir de su IMEI.',
  unlock: 'Libera tu teléfono del operador para usarlo con la compañía que prefieras.',
  licenses: 'Claves de licencia para sistemas operativos, ofimática, antivirus y más.',
  streaming: 'Planes de las principales plataformas de video y música, listos para usar.',
  gaming: 'Recargas y créditos para tus juegos y tiendas de videojuegos favoritas.',
  social: 'Seguidores, me gusta y visualizaciones para tus perfiles, con precio por cada 1000.',
  cleanimei:
    'Gestión de reportes de IMEI en lista negra para equipos propios y de origen legítimo.',
};

function IconFrame({ children }: { children: ReactNode }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.75}
      strokeLinecap="round"
      strokeLinejoin="round"
      className="size-6"
    >
      {children}
    </svg>
  );
}

function CategoryIcon({ slug }: { slug: CategorySlug }) {
  switch (slug) {
    case 'IMEI':
      return (
        <IconFrame>
          <circle cx="11" cy="11" r="6" />
          <path d="m20 20-4.5-4.5" />
          <path d="M9 11h4" />
        </IconFrame>
      );
    case 'unlock':
      return (
        <IconFrame>
          <rect x="5" y="11" width="14" height="10" rx="2" />
          <path d="M8 11V7a4 4 0 0 1 7.7-1.5" />
          <path d="M12 15v2" />
        </IconFrame>
      );
    case 'licenses':
      return (
        <IconFrame>
          <circle cx="8" cy="15" r="4" />
          <path d="m11 12 8-8" />
          <path d="m16 7 2 2" />
          <path d="m18 5 2 2" />
        </IconFrame>
      );
    case 'streaming':
      return (
        <IconFrame>
          <rect x="3" y="5" width="18" height="12" rx="2" />
          <path d="m10 8.5 4.5 2.5-4.5 2.5z" />
          <path d="M8 21h8" />
        </IconFrame>
      );
    case 'gaming':
      return (
        <IconFrame>
          <rect x="2.5" y="7" width="19" height="11" rx="5.5" />
          <path d="M7.5 10.5v4" />
          <path d="M5.5 12.5h4" />
          <path d="M15.5 11.5h.01" />
          <path d="M18 13.5h.01" />
        </IconFrame>
      );
    case 'social':
      return (
        <IconFrame>
          <path d="M12 20s-7-4.35-7-10a4 4 0 0 1 7-2.65A4 4 0 0 1 19 10c0 5.65-7 10-7 10z" />
        </IconFrame>
      );
    case 'cleanimei':
      return (
        <IconFrame>
          <path d="M12 3 5 6v5c0 4.5 3 8.3 7 10 4-1.7 7-5.5 7-10V6z" />
          <path d="m9 12 2 2 4-4" />
        </IconFrame>
      );
  }
}

function CheckIcon() {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 20 20"
      fill="currentColor"
      className="mt-0.5 size-5 shrink-0 text-brand-600"
    >
      <path
        fillRule="evenodd"
        d="M10 18a8 8 0 1 0 0-16 8 8 0 0 0 0 16zm3.7-9.3a1 1 0 0 0-1.4-1.4L9 10.6 7.7 9.3a1 1 0 0 0-1.4 1.4l2 2a1 1 0 0 0 1.4 0l4-4z"
        clipRule="evenodd"
      />
    </svg>
  );
}

function CometArt() {
  return (
    <svg aria-hidden="true" viewBox="0 0 400 320" className="h-auto w-full" fill="none">
      <defs>
        <linearGradient id="home-comet-tail" x1="0" y1="1" x2="1" y2="0">
          <stop offset="0" stopColor="#6366f1" stopOpacity="0" />
          <stop offset="1" stopColor="#6366f1" stopOpacity="0.55" />
        </linearGradient>
        <radialGradient id="home-comet-head" cx="0.5" cy="0.5" r="0.5">
          <stop offset="0" stopColor="#ffffff" />
          <stop offset="0.45" stopColor="#a5b4fc" />
          <stop offset="1" stopColor="#4f46e5" />
        </radialGradient>
      </defs>
      <circle cx="200" cy="160" r="140" fill="#eef2ff" />
      <circle cx="200" cy="160" r="100" fill="#e0e7ff" />
      <path d="M40 290 L292 92 L306 110 Z" fill="url(#home-comet-tail)" />
      <path d="M80 300 L296 106 L300 112 Z" fill="url(#home-comet-tail)" opacity="0.6" />
      <circle cx="300" cy="100" r="26" fill="url(#home-comet-head)" />
      <circle cx="86" cy="70" r="3" fill="#6366f1" />
      <circle cx="120" cy="40" r="2" fill="#4f46e5" />
      <circle cx="340" cy="230" r="3" fill="#6366f1" />
      <circle cx="360" cy="40" r="2" fill="#4338ca" />
      <circle cx="60" cy="160" r="2" fill="#4338ca" />
    </svg>
  );
}

const STEPS = [
  {
    title: 'Regístrate y verifica tu correo',
    text: 'Crea tu cuenta en un minuto y confirma tu correo electrónico con el enlace que te enviamos.',
  },
  {
    title: 'Añade créditos',
    text: 'Recarga tu saldo en dólares con el método de pago que prefieras. Se acredita al confirmarse el pago.',
  },
  {
    title: 'Haz tu orden',
    text: 'Elige el servicio, escribe los datos que pide (IMEI, usuario o enlace) y confirma. El precio se descuenta de tu saldo.',
  },
  {
    title: 'Sigue su estado',
    text: 'Consulta en tu historial si la orden está pendiente, en proceso o completada, y recibe el resultado en el panel.',
  },
] as const;

const REASONS = [
  {
    title: 'Saldo prepago en dólares, sin sorpresas',
    text: 'Ves el precio antes de confirmar y solo pagas lo que ordenas. Sin cuotas mensuales ni cargos ocultos.',
  },
  {
    title: 'Reembolso automático al saldo',
    text: 'Si una orden se rechaza, el importe vuelve a tu saldo de forma automática y completa.',
  },
  {
    title: 'Seguimiento de cada orden',
    text: 'Cada orden tiene su estado y su historial, para que sepas en todo momento en qué punto está.',
  },
  {
    title: 'API compatible para revendedores',
    text: 'Conecta tu propia tienda o panel y automatiza tus órdenes con nuestra API para revendedores.',
  },
] as const;

export default function Home() {
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <section
        aria-labelledby="home-hero-title"
        className="overflow-hidden rounded-3xl border border-brand-100 bg-linear-to-br from-brand-50 via-white to-white px-6 py-10 shadow-sm sm:px-10 sm:py-14"
      >
        <div className="grid items-center gap-10 lg:grid-cols-2">
          <div>
            <p className="inline-flex items-center gap-2 rounded-full bg-brand-100 px-3 py-1 text-sm font-semibold text-brand-800">
              Panel para revendedores
            </p>
            <h1
              id="home-hero-title"
              className="mt-4 text-3xl font-bold tracking-tight text-balance text-slate-900 sm:text-4xl lg:text-5xl"
            >
              Servicios digitales y para celulares, pagados con tu saldo prepago
            </h1>
            <p className="mt-4 text-lg text-slate-600">
              Con {APP_NAME} ordenas consultas IMEI, desbloqueos, licencias, planes de streaming,
              recargas de juegos y más desde un solo panel. Recargas en dólares, pagas cada orden
              con tu saldo y sigues su estado en tiempo real.
            </p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <AppLink to="/register" className={buttonClass('primary', 'px-6')}>
                Crear cuenta
              </AppLink>
              <AppLink to="/nosotros/2" className={buttonClass('secondary', 'px-6')}>
                Ver servicios
              </AppLink>
            </div>
            <p className="mt-4 text-sm text-slate-600">
              Sin cuotas mensuales. Solo pagas las órdenes que haces.
            </p>
          </div>
          <div className="mx-auto w-full max-w-md">
            <CometArt />
          </div>
        </div>
      </section>

      <section aria-labelledby="home-categories-title" className="mt-16">
        <div className="max-w-2xl">
          <h2
            id="home-categories-title"
            className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl"
          >
            Todo lo que puedes ordenar
          </h2>
          <p className="mt-2 text-slate-600">
            Siete categorías de servicios, con precios claros y entrega desde minutos.
          </p>
        </div>
        <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {CATEGORIES.map((category) => (
            <li
              key={category.slug}
              className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition-shadow hover:shadow-md"
            >
              <span className="inline-flex size-11 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
                <CategoryIcon slug={category.slug} />
              </span>
              <h3 className="mt-4 text-lg font-semibold text-slate-900">{category.label}</h3>
              <p className="mt-1 text-slate-600">{CATEGORY_DESCRIPTIONS[category.slug]}</p>
            </li>
          ))}
        </ul>
        <p className="mt-6">
          <AppLink
            to="/nosotros/2"
            className="font-semibold text-brand-700 underline-offset-4 hover:underline"
          >
            Conoce los plazos y precios de cada servicio
            <span aria-hidden="true"> →</span>
          </AppLink>
        </p>
      </section>

      <section aria-labelledby="home-steps-title" className="mt-16">
        <h2
          id="home-steps-title"
          className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl"
        >
          Cómo funciona
        </h2>
        <ol className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {STEPS.map((step, index) => (
            <li
              key={step.title}
              className="relative rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
            >
              <span
                aria-hidden="true"
                className="inline-flex size-10 items-center justify-center rounded-full bg-brand-600 text-lg font-bold text-white"
              >
                {index + 1}
              </span>
              <h3 className="mt-4 text-lg font-semibold text-slate-900">{step.title}</h3>
              <p className="mt-1 text-slate-600">{step.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section
        aria-labelledby="home-reasons-title"
        className="mt-16 rounded-3xl border border-slate-200 bg-white px-6 py-10 shadow-sm sm:px-10"
      >
        <div className="grid gap-10 lg:grid-cols-3">
          <div>
            <h2
              id="home-reasons-title"
              className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl"
            >
              Por qué elegir {APP_NAME}
            </h2>
            <p className="mt-2 text-slate-600">
              Lo construimos como nos gustaría usarlo: claro, rápido y sin letra pequeña.
            </p>
          </div>
          <ul className="grid gap-6 sm:grid-cols-2 lg:col-span-2">
            {REASONS.map((reason) => (
              <li key={reason.title} className="flex gap-3">
                <CheckIcon />
                <div>
                  <h3 className="font-semibold text-slate-900">{reason.title}</h3>
                  <p className="mt-1 text-slate-600">{reason.text}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section
        aria-labelledby="home-cta-title"
        className="mt-16 rounded-3xl bg-brand-900 px-6 py-12 text-center shadow-sm sm:px-10"
      >
        <h2
          id="home-cta-title"
          className="text-2xl font-bold tracking-tight text-white sm:text-3xl"
        >
          ¿Listo para empezar?
        </h2>
        <p className="mx-auto mt-3 max-w-2xl text-brand-100">
          Crea tu cuenta gratis, añade créditos y haz tu primera orden hoy mismo. Si tienes dudas,
          escríbenos y te respondemos en un día hábil.
        </p>
        <div className="mt-8 flex flex-col items-center justify-center gap-4 sm:flex-row">
          <AppLink to="/register" className={buttonClass('secondary', 'px-6')}>
            Crear cuenta
          </AppLink>
          <AppLink
            to="/contacto"
            className="inline-flex min-h-11 items-center font-semibold text-white underline underline-offset-4 hover:text-brand-100"
          >
            Hablar con nosotros
          </AppLink>
        </div>
      </section>
    </div>
  );
}
