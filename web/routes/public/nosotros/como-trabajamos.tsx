import { AppLink } from '../../../components/ui/app-link';
import { buttonClass } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import {
  BulletList,
  SectionHeading,
  SectionPage,
  sectionMeta,
} from '../../../features/nosotros/section-page';

export function meta() {
  return sectionMeta('3');
}

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

export default function ProcessPage() {
  return (
    <SectionPage id="3">
      <ProcessSection />
    </SectionPage>
  );
}
