import { AppLink } from '../../../components/ui/app-link';
import { Card } from '../../../components/ui/card';
import {
  BulletList,
  SectionHeading,
  SectionPage,
  sectionMeta,
} from '../../../features/nosotros/section-page';
import { APP_NAME } from '../../../lib/app-name';

export function meta() {
  return sectionMeta('1');
}

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
          celulares y servicios digitales bajo un mismo saldo prepago.
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

export default function AboutPage() {
  return (
    <SectionPage id="1">
      <AboutSection />
    </SectionPage>
  );
}
