import type { ReactNode } from 'react';
import { AppLink } from '../../components/ui/app-link';
import { buttonClass } from '../../components/ui/button';
import { Card, PageTitle } from '../../components/ui/card';
import { APP_NAME } from '../../lib/app-name';

// The /nosotros/:id pages: one route per section (web/routes/public/nosotros/), so each page loads
// only its own text; this module holds what they share (the section list, the side navigation and
// the layout).

export type SectionId = '1' | '2' | '3' | '4';

export type SectionInfo = { id: SectionId; title: string; description: string };

export const SECTIONS: readonly SectionInfo[] = [
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

export function findSection(id: string | undefined): SectionInfo | undefined {
  return SECTIONS.find((section) => section.id === id);
}

/** The title and description of a section's page (the ones of a missing section without one). */
export function sectionMeta(id: string | undefined) {
  const section = findSection(id);
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

export function SectionHeading({ children }: { children: ReactNode }) {
  return <h2 className="text-xl font-bold tracking-tight text-slate-900">{children}</h2>;
}

export function BulletList({ items }: { items: readonly { title: string; text: string }[] }) {
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

/** A section's page: the side navigation, and the section's title and body (or `children` alone). */
export function SectionPage({ id, children }: { id: string | undefined; children: ReactNode }) {
  const section = findSection(id);
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <div className="grid gap-8 lg:grid-cols-[14rem_minmax(0,1fr)]">
        <aside>
          <SectionNav current={section?.id} />
        </aside>
        <div className="min-w-0">
          {section ? <PageTitle title={section.title} subtitle={section.description} /> : null}
          {children}
        </div>
      </div>
    </div>
  );
}

/** The body of /nosotros/:id for a section that does not exist. */
export function MissingSection() {
  return (
    <Card>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
        Esta sección no existe
      </h1>
      <p className="mt-3 text-slate-600">
        La dirección que abriste no corresponde a ninguna sección. Elige una de la lista o vuelve al
        inicio.
      </p>
      <p className="mt-6">
        <AppLink to="/" className={buttonClass('primary')}>
          Volver al inicio
        </AppLink>
      </p>
    </Card>
  );
}
