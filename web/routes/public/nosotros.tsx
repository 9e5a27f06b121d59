import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { CATEGORIES, type CategorySlug } from '../../../shared/categories';
import { AppLink } from '../../components/ui/app-link';
import { buttonClass } from '../../components/ui/button';
import { Card, PageTitle } from '../../components/ui/card';
import { APP_NAME } from '../../lib/app-name';

type SectionId = '1' | '2' | '3' | '4';

type SectionInfo = { id: SectionId; title: string; description: string };

const SECTIONS: readonly SectionInfo[] = [
  {
    id: '1',
    title: 'Sobre nosotros',
    description: `Conoce el estudio de desarrollo de software que está detrás de ${APP_NAME}.`,
  },
  {
    id: '2',
    title: 'Servicios',
    description: `Las siete categorías de servicios de ${APP_NAME}, sus plazos de entrega y cómo se calculan los precios.`,
  },
  {
    id: '3',
    title: 'Cómo trabajamos',
    description: `Nuestro proceso, el soporte y las medidas de seguridad que protegen tu cuenta en ${APP_NAME}.`,
  },
  {
    id: '4',
    title: 'Preguntas frecuentes',
    description: `Respuestas sobre créditos, reembolsos, plazos de entrega y estados de las órdenes en ${APP_NAME}.`,
  },
];

function findSection(id: string | undefined): SectionInfo | undefined {
  return SECTIONS.find((section) => section.id === id);
}

export function meta({ params }: { params: { id?: string } }) {
  const section = findSection(params.id);
  if (!section) {
    return [
      { title: `Sección no encontrada · ${APP_NAME}` },
      { name: 'description', content: `Esta sección no existe en ${APP_NAME}.` },
    ];
  }
  return [
    { title: `${section.title} · ${APP_NAME}` },
    { name: 'description', content: section.description },
  ];
}

function SectionNav({ current }: { current: SectionId | undefined }) {
  return (
    <nav aria-label="Secciones" className="lg:sticky lg:top-6">
      <p className="mb-2 text-sm font-semibold tracking-wide text-slate-600 uppercase">Secciones</p>
      <ul className="flex gap-2 overflow-x-auto pb-2 lg:flex-col lg:gap-1 lg:overflow-visible lg:pb-0">
        {SECTIONS.map((section) => {
          const active = section.id === current;
          return (
            <li key={section.id} className="shrink-0">
              <AppLink
                to={`/nosotros/${section.id}`}
                aria-current={active ? 'page' : undefined}
                className={`flex min-h-11 items-center rounded-lg px-3 py-2 text-sm font-medium whitespace-nowrap transition-colors ${
                  active
                    ? 'bg-brand-600 text-white'
                    : 'border border-slate-200 bg-white text-slate-700 hover:bg-slate-100 lg:border-transparent lg:bg-transparent'
                }`}
              >
                {section.title}
              </AppLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function SectionHeading({ children }: { children: ReactNode }) {
  return <h2 className="text-xl font-bold tracking-tight text-slate-900">{children}</h2>;
}

function BulletList({ items }: { items: readonly { title: string; text: string }[] }) {
  return (
    <ul className="mt-4 grid gap-4 sm:grid-cols-2">
      {items.map((item) => (
        <li key={item.title} className="rounded-xl border border-slate-200 bg-slate-50 p-4">
          <h3 className="font-semibold text-slate-900">{item.title}</h3>
          <p className="mt-1 text-slate-600">{item.text}</p>
        </li>
      ))}
    </ul>
  );
}

// --- 1. Sobre nosotros -------------------------------------------------------------------

const VALUES = [
  {
    title: 'Transparencia',
    text: 'Precios visibles antes de confirmar, estados claros y un historial de cada movimiento de tu saldo.',
  },
  {
    title: 'Seguridad',
    text: 'Tratamos tus datos y tu saldo con el cuidado que pediríamos para los nuestros.',
  },
  {
    title: 'Sencillez',
    text: 'Preferimos pocas pantallas bien resueltas a muchas funciones que nadie entiende.',
  },
  {
    title: 'Trato cercano',
    text: 'Detrás del panel hay personas que leen tus mensajes y responden en español.',
  },
] as const;

const BUILDS = [
  {
    title: 'Aplicaciones web',
    text: 'Paneles de clientes, tiendas y herramientas internas rápidas y accesibles desde cualquier dispositivo.',
  },
  {
    title: 'APIs e integraciones',
    text: 'Conectamos sistemas de pago, proveedores y servicios externos de forma fiable.',
  },
  {
    title: 'Automatización',
    text: 'Procesos que antes se hacían a mano y ahora corren solos, con registro de cada paso.',
  },
  {
    title: 'Mantenimiento',
    text: 'Actualizaciones, monitoreo y mejoras continuas de los productos que ya funcionan.',
  },
] as const;

function AboutSection() {
  return (
    <div className="space-y-6">
      <Card>
        <SectionHeading>Quiénes somos</SectionHeading>
        <p className="mt-3 text-slate-600">
          Somos un estudio independiente de desarrollo de software. Diseñamos, construimos y
          mantenemos productos web para negocios que venden servicios digitales. {APP_NAME} es
          nuestro propio producto: un panel para revendedores que reúne servicios para teléfonos
          móviles y servicios digitales bajo un mismo saldo prepago.
        </p>
        <p className="mt-3 text-slate-600">
          Nacimos de una necesidad concreta: muchos revendedores trabajaban con hojas de cálculo,
          mensajes sueltos y pagos difíciles de seguir. Quisimos ofrecer una herramienta clara, con
          precios visibles y un registro de cada orden.
        </p>
      </Card>
      <Card>
        <SectionHeading>Qué construimos</SectionHeading>
        <p className="mt-3 text-slate-600">
          Además de {APP_NAME}, desarrollamos software a medida para otras empresas:
        </p>
        <BulletList items={BUILDS} />
      </Card>
      <Card>
        <SectionHeading>Nuestros valores</SectionHeading>
        <BulletList items={VALUES} />
      </Card>
      <Card>
        <SectionHeading>Cómo trabajamos</SectionHeading>
        <p className="mt-3 text-slate-600">
          Trabajamos en ciclos cortos, con entregas frecuentes y comunicación directa. Cada cambio
          se prueba antes de publicarse y escuchamos las sugerencias de quienes usan el panel a
          diario.
        </p>
        <p className="mt-4">
          <AppLink
            to="/nosotros/3"
            className="font-semibold text-brand-700 underline-offset-4 hover:underline"
          >
            Lee más sobre nuestro proceso y seguridad
            <span aria-hidden="true"> →</span>
          </AppLink>
        </p>
      </Card>
    </div>
  );
}

// --- 2. Servicios ------------------------------------------------------------------------

type CategoryDetail = { description: string; delivery: string; pricing: string };

const FIXED_PRICE = 'Precio fijo por orden.';

const CATEGORY_DETAILS: Record<CategorySlug, CategoryDetail> = {
  IMEI: {
    description:
      'Consultas a partir del IMEI o el número de serie: operador, país, estado de bloqueo, garantía y estado en listas negras.',
    delivery: 'Desde minutos hasta 24 h según la consulta.',
    pricing: FIXED_PRICE,
  },
  unlock: {
    description:
      'Liberación del equipo de su operador de origen para usarlo con cualquier compañía compatible.',
    delivery: 'Desde minutos hasta 72 h según el modelo y el operador.',
    pricing: FIXED_PRICE,
  },
  licenses: {
    description:
      'Claves de licencia para sistemas operativos, ofimática, antivirus y otras aplicaciones, entregadas en el panel.',
    delivery: 'Desde minutos hasta 24 h según el producto.',
    pricing: FIXED_PRICE,
  },
  streaming: {
    description:
      'Planes y suscripciones de plataformas de video y música, con los datos de acceso en el detalle de la orden.',
    delivery: 'Desde minutos hasta 24 h según la plataforma.',
    pricing: FIXED_PRICE,
  },
  gaming: {
    description:
      'Recargas de monedas, créditos y tarjetas para juegos y tiendas de videojuegos, a tu usuario o como código.',
    delivery: 'Desde minutos hasta 24 h según el juego.',
    pricing: FIXED_PRICE,
  },
  social: {
    description:
      'Seguidores, me gusta, visualizaciones y comentarios para perfiles y publicaciones a partir de su enlace.',
    delivery: 'Empieza en minutos; las cantidades grandes se entregan de forma gradual hasta 72 h.',
    pricing: 'Precio por cada 1000 unidades; pagas solo la cantidad que pides.',
  },
  cleanimei: {
    description:
      'Gestión de reportes de IMEI en lista negra por deuda o bloqueo del operador, solo para equipos propios y de origen legítimo.',
    delivery: 'De 24 h hasta 72 h según el operador.',
    pricing: FIXED_PRICE,
  },
};

const DEV_SERVICES = [
  {
    title: 'Desarrollo a medida',
    text: 'Aplicaciones web y paneles diseñados para tu negocio, desde la idea hasta la puesta en marcha.',
  },
  {
    title: 'Integraciones y API',
    text: 'Conectamos tu tienda o tu panel con proveedores, pasarelas de pago y con la API de revendedores.',
  },
  {
    title: 'Marca blanca',
    text: 'Un panel como este con tu nombre, tus colores y tus propios precios para tus clientes.',
  },
  {
    title: 'Soporte y mantenimiento',
    text: 'Actualizaciones de seguridad, copias de respaldo y mejoras continuas de tu plataforma.',
  },
] as const;

function ServicesSection() {
  return (
    <div className="space-y-6">
      <Card>
        <SectionHeading>El panel de servicios</SectionHeading>
        <p className="mt-3 text-slate-600">
          En {APP_NAME} pagas cada orden con tu saldo prepago en dólares. Los plazos de entrega van
          desde minutos hasta 72 h según el servicio, y son estimados: el tiempo real depende del
          proveedor y de los datos de cada orden.
        </p>
        <ul className="mt-4 grid gap-3 sm:grid-cols-2">
          <li className="rounded-xl border border-brand-100 bg-brand-50 p-4">
            <h3 className="font-semibold text-brand-900">Precio fijo por orden</h3>
            <p className="mt-1 text-slate-700">
              La mayoría de los servicios tiene un precio cerrado que ves antes de confirmar.
            </p>
          </li>
          <li className="rounded-xl border border-brand-100 bg-brand-50 p-4">
            <h3 className="font-semibold text-brand-900">Precio por cada 1000 unidades</h3>
            <p className="mt-1 text-slate-700">
              En redes sociales el precio se indica por cada 1000 unidades y se calcula según la
              cantidad que pides.
            </p>
          </li>
        </ul>
      </Card>

      <Card>
        <SectionHeading>Categorías</SectionHeading>
        <ul className="mt-4 grid gap-4 md:grid-cols-2">
          {CATEGORIES.map((category) => {
            const detail = CATEGORY_DETAILS[category.slug];
            return (
              <li key={category.slug} className="rounded-xl border border-slate-200 p-5">
                <h3 className="text-lg font-semibold text-slate-900">{category.label}</h3>
                <p className="mt-1 text-slate-600">{detail.description}</p>
                <dl className="mt-3 space-y-1 text-sm">
                  <div className="flex flex-wrap gap-x-1">
                    <dt className="font-semibold text-slate-800">Entrega:</dt>
                    <dd className="text-slate-600">{detail.delivery}</dd>
                  </div>
                  <div className="flex flex-wrap gap-x-1">
                    <dt className="font-semibold text-slate-800">Precio:</dt>
                    <dd className="text-slate-600">{detail.pricing}</dd>
                  </div>
                </dl>
              </li>
            );
          })}
        </ul>
        <div className="mt-6 flex flex-col gap-3 sm:flex-row">
          <AppLink to="/register" className={buttonClass('primary')}>
            Crear cuenta
          </AppLink>
          <AppLink to="/nosotros/4" className={buttonClass('secondary')}>
            Ver preguntas frecuentes
          </AppLink>
        </div>
      </Card>

      <Card>
        <SectionHeading>Desarrollo de software</SectionHeading>
        <p className="mt-3 text-slate-600">
          Como estudio de desarrollo, también ponemos nuestra experiencia al servicio de tu
          proyecto.
        </p>
        <BulletList items={DEV_SERVICES} />
        <p className="mt-4">
          <AppLink
            to="/contacto"
            className="font-semibold text-brand-700 underline-offset-4 hover:underline"
          >
            Cuéntanos tu proyecto
            <span aria-hidden="true"> →</span>
          </AppLink>
        </p>
      </Card>
    </div>
  );
}

// --- 3. Cómo trabajamos ------------------------------------------------------------------

const ORDER_PROCESS = [
  {
    title: 'Recibimos tu orden',
    text: 'Al confirmar, el precio se descuenta de tu saldo y la orden queda registrada con su número.',
  },
  {
    title: 'La revisamos y la enviamos',
    text: 'Comprobamos los datos y enviamos la orden al proveedor adecuado. Pasa a estar en proceso.',
  },
  {
    title: 'Te entregamos el resultado',
    text: 'Cuando termina, verás el resultado en el detalle de la orden dentro de tu historial.',
  },
  {
    title: 'Si algo falla, te reembolsamos',
    text: 'Si la orden se rechaza, el importe vuelve completo a tu saldo de forma automática.',
  },
] as const;

const SECURITY = [
  {
    title: 'Contraseñas cifradas',
    text: 'Guardamos tu contraseña cifrada con un algoritmo de hash moderno; nadie, ni siquiera nuestro equipo, puede leerla.',
  },
  {
    title: 'Verificación de correo',
    text: 'Cada cuenta confirma su correo electrónico antes de poder añadir créditos u ordenar servicios.',
  },
  {
    title: 'Sesiones seguras',
    text: 'Las sesiones usan cookies seguras, conexiones cifradas y se cierran tras un tiempo de inactividad.',
  },
  {
    title: 'Registro de movimientos',
    text: 'Cada recarga, cargo y reembolso queda registrado, de modo que tu saldo siempre cuadra.',
  },
] as const;

function ProcessSection() {
  return (
    <div className="space-y-6">
      <Card>
        <SectionHeading>El proceso de una orden</SectionHeading>
        <ol className="mt-4 space-y-4">
          {ORDER_PROCESS.map((step, index) => (
            <li key={step.title} className="flex gap-4">
              <span
                aria-hidden="true"
                className="inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-600 font-bold text-white"
              >
                {index + 1}
              </span>
              <div>
                <h3 className="font-semibold text-slate-900">{step.title}</h3>
                <p className="mt-1 text-slate-600">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </Card>
      <Card>
        <SectionHeading>Proyectos de software</SectionHeading>
        <p className="mt-3 text-slate-600">
          En los proyectos a medida empezamos por entender tu negocio y definir juntos el alcance.
          Después trabajamos en entregas cortas que puedes probar desde el principio, con una
          persona de contacto fija y reuniones de seguimiento. Al terminar, te entregamos la
          documentación y seguimos disponibles para el mantenimiento.
        </p>
      </Card>
      <Card>
        <SectionHeading>Soporte</SectionHeading>
        <p className="mt-3 text-slate-600">
          Te atendemos a través del formulario de contacto de lunes a viernes, de 9:00 a 18:00
          (UTC−5), y respondemos en un plazo de 1 día hábil. Si tu consulta trata de una orden,
          incluye su número para que podamos revisarla más rápido.
        </p>
        <p className="mt-4">
          <AppLink to="/contacto" className={buttonClass('secondary')}>
            Ir a contacto
          </AppLink>
        </p>
      </Card>
      <Card>
        <SectionHeading>Seguridad</SectionHeading>
        <BulletList items={SECURITY} />
      </Card>
    </div>
  );
}

// --- 4. Preguntas frecuentes -------------------------------------------------------------

const ORDER_STATES = [
  { state: 'Pendiente', text: 'recibimos la orden y aún no se ha enviado al proveedor.' },
  { state: 'En proceso', text: 'el proveedor está trabajando en ella.' },
  { state: 'Completada', text: 'el servicio se entregó; el resultado está en el detalle.' },
  { state: 'Rechazada', text: 'no se pudo realizar; el importe vuelve completo a tu saldo.' },
  { state: 'Cancelada', text: 'la cancelaste antes de su envío y se reembolsó al momento.' },
  { state: 'Parcial', text: 'se entregó solo una parte; la parte no entregada se reembolsa.' },
] as const;

type Faq = { question: string; answer: ReactNode };

const FAQS: readonly Faq[] = [
  {
    question: '¿Qué son los créditos y cómo los añado?',
    answer: (
      <p>
        Los créditos son tu saldo prepago en dólares estadounidenses dentro de {APP_NAME}. Los
        añades desde la página «Añadir fondos» con el método de pago que prefieras; el saldo se
        acredita en cuanto se confirma el pago. Los créditos no caducan, pero no son dinero en
        efectivo ni se pueden transferir a otra cuenta.
      </p>
    ),
  },
  {
    question: '¿Cuándo se descuenta el precio de una orden?',
    answer: (
      <p>
        En el momento en que confirmas la orden. Antes de hacerlo ves el precio exacto, y en redes
        sociales el total se calcula según la cantidad que pides, a partir del precio por cada 1000
        unidades.
      </p>
    ),
  },
  {
    question: '¿Qué pasa si mi orden se rechaza?',
    answer: (
      <p>
        El importe completo vuelve a tu saldo de forma automática, una sola vez por orden. Si la
        orden se entrega solo en parte, se reembolsa la parte no entregada. Los reembolsos siempre
        van al saldo, no a la tarjeta ni a la cuenta bancaria.
      </p>
    ),
  },
  {
    question: '¿Puedo cancelar una orden?',
    answer: (
      <p>
        Sí, mientras siga pendiente y no se haya enviado al proveedor. Al cancelarla, el importe
        vuelve a tu saldo al instante. Una vez en proceso ya no se puede cancelar.
      </p>
    ),
  },
  {
    question: '¿Cuánto tarda en entregarse un servicio?',
    answer: (
      <p>
        Desde minutos hasta 72 h según el servicio. Cada servicio muestra su plazo estimado antes de
        ordenar. Son plazos orientativos que dependen del proveedor y de que los datos de la orden
        sean correctos.
      </p>
    ),
  },
  {
    question: '¿Qué significa cada estado de una orden?',
    answer: (
      <dl className="space-y-1">
        {ORDER_STATES.map((item) => (
          <div key={item.state}>
            <dt className="inline font-semibold text-slate-800">{item.state}:</dt>{' '}
            <dd className="inline">{item.text}</dd>
          </div>
        ))}
      </dl>
    ),
  },
  {
    question: '¿Qué pasa si escribo mal el IMEI o el enlace?',
    answer: (
      <p>
        Revisa siempre los datos antes de confirmar. Si el proveedor procesa la orden con datos
        incorrectos que diste tú, no se puede reembolsar. Si te das cuenta a tiempo y la orden sigue
        pendiente, cancélala y vuelve a hacerla.
      </p>
    ),
  },
  {
    question: '¿Cómo me pongo en contacto con ustedes?',
    answer: (
      <p>
        Escríbenos desde la{' '}
        <AppLink
          to="/contacto"
          className="font-semibold text-brand-700 underline underline-offset-4"
        >
          página de contacto
        </AppLink>
        . Atendemos de lunes a viernes, de 9:00 a 18:00 (UTC−5), y respondemos en 1 día hábil.
      </p>
    ),
  },
];

function FaqSection() {
  return (
    <ul className="space-y-4">
      {FAQS.map((faq) => (
        <li key={faq.question}>
          <Card>
            <h2 className="text-lg font-semibold text-slate-900">{faq.question}</h2>
            <div className="mt-2 text-slate-600">{faq.answer}</div>
          </Card>
        </li>
      ))}
    </ul>
  );
}

// --- Page --------------------------------------------------------------------------------

function SectionBody({ id }: { id: SectionId }) {
  switch (id) {
    case '1':
      return <AboutSection />;
    case '2':
      return <ServicesSection />;
    case '3':
      return <ProcessSection />;
    case '4':
      return <FaqSection />;
  }
}

export default function Nosotros() {
  const params = useParams();
  const section = findSection(params.id);

  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <div className="grid gap-8 lg:grid-cols-[14rem_minmax(0,1fr)]">
        <aside>
          <SectionNav current={section?.id} />
        </aside>
        <div className="min-w-0">
          {section ? (
            <>
              <PageTitle title={section.title} subtitle={section.description} />
              <SectionBody id={section.id} />
            </>
          ) : (
            <Card>
              <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
                Esta sección no existe
              </h1>
              <p className="mt-3 text-slate-600">
                La dirección que abriste no corresponde a ninguna sección. Elige una de la lista o
                vuelve al inicio.
              </p>
              <p className="mt-6">
                <AppLink to="/" className={buttonClass('primary')}>
                  Volver al inicio
                </AppLink>
              </p>
            </Card>
          )}
        </div>
      </div>
    </div>
  );
}
