import { CATEGORIES, type CategorySlug } from '../../../../shared/categories';
import { AppLink } from '../../../components/ui/app-link';
import { buttonClass } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import {
  BulletList,
  SectionHeading,
  SectionPage,
  sectionMeta,
} from '../../../features/nosotros/section-page';
import { APP_NAME } from '../../../lib/app-name';

export function meta() {
  return sectionMeta('2');
}

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

export default function ServicesPage() {
  return (
    <SectionPage id="2">
      <ServicesSection />
    </SectionPage>
  );
}
