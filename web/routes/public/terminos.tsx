import type { ReactNode } from 'react';
import { AppLink } from '../../components/ui/app-link';
import { Card, PageTitle } from '../../components/ui/card';
import { APP_NAME } from '../../lib/app-name';

export function meta() {
  return [
    { title: `Términos y condiciones · ${APP_NAME}` },
    {
      name: 'description',
      content: `Condiciones de uso de ${APP_NAME}: cuenta, créditos prepago, órdenes, plazos, reembolsos y privacidad.`,
    },
  ];
}

const linkClass = 'font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-800';

function Clause({
  number,
  title,
  children,
}: {
  number: number;
  title: string;
  children: ReactNode;
}) {
  const id = `termino-${number}`;
  return (
    <section aria-labelledby={id} className="scroll-mt-6">
      <h2 id={id} className="text-lg font-semibold text-slate-900 sm:text-xl">
        {number}. {title}
      </h2>
      <div className="mt-3 space-y-3 text-slate-600">{children}</div>
    </section>
  );
}

function Points({ children }: { children: ReactNode }) {
  return <ul className="list-disc space-y-2 pl-5 marker:text-brand-600">{children}</ul>;
}

export default function Terminos() {
  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <div className="mx-auto max-w-3xl">
        <PageTitle
          title="Términos y condiciones"
          subtitle={`Las reglas que se aplican cuando usas ${APP_NAME}. Léelas con calma: al crear tu cuenta las aceptas.`}
        />
        <p className="-mt-3 mb-6 text-sm text-slate-600">
          Última actualización: <time dateTime="2026-11-22">22 de noviembre de 2026</time>
        </p>

        <Card className="space-y-10 sm:p-8">
          <Clause number={1} title="Objeto y aceptación">
            <p>
              Estos términos regulan el uso de {APP_NAME}, una plataforma en la que los clientes
              mantienen un saldo prepago y lo usan para ordenar servicios digitales y para teléfonos
              celulares: servicios IMEI, desbloqueos, licencias, streaming, gaming, redes sociales y
              limpieza de IMEI. {APP_NAME} actúa como revendedor de servicios que en muchos casos
              prestan proveedores externos.
            </p>
            <p>
              Al registrarte, añadir créditos u ordenar un servicio aceptas estos términos. Si no
              estás de acuerdo con ellos, no uses la plataforma.
            </p>
          </Clause>

          <Clause number={2} title="Cuenta y verificación de correo">
            <Points>
              <li>
                Cada persona puede tener una sola cuenta. Los datos del registro deben ser reales y
                estar actualizados.
              </li>
              <li>
                Debes verificar tu correo electrónico antes de añadir créditos u ordenar servicios.
                Usaremos ese correo para avisos sobre tu cuenta y tus órdenes.
              </li>
              <li>
                Mantén tu contraseña en secreto y no la compartas. Eres responsable de lo que se
                haga desde tu cuenta; si crees que alguien más ha accedido a ella, cambia tu
                contraseña y avísanos enseguida.
              </li>
            </Points>
          </Clause>

          <Clause number={3} title="Créditos y saldo">
            <Points>
              <li>
                El saldo es prepago y se expresa en dólares estadounidenses (USD). Solo sirve para
                pagar servicios dentro de {APP_NAME}.
              </li>
              <li>
                Los créditos no son dinero en efectivo ni un depósito bancario: no se pueden
                retirar, no son transferibles a otra cuenta o persona y no generan intereses.
              </li>
              <li>Los créditos no caducan mientras la cuenta exista.</li>
              <li>
                Las recargas se acreditan en tu saldo una vez que el pago se confirma. Algunos
                métodos de pago pueden tardar más que otros en confirmarse.
              </li>
              <li>
                Cada método de pago tiene un importe mínimo y máximo por recarga, que se muestra en
                la página{' '}
                <AppLink to="/addfunds" className={linkClass}>
                  Añadir fondos
                </AppLink>
                .
              </li>
            </Points>
          </Clause>

          <Clause number={4} title="Órdenes">
            <Points>
              <li>
                El precio de la orden se descuenta de tu saldo en el momento en que la haces, y ese
                importe queda retenido mientras la orden está en proceso. Si no tienes saldo
                suficiente, la orden no se crea.
              </li>
              <li>
                En los servicios de redes sociales el precio se expresa por cada 1000 unidades y el
                total se calcula según la cantidad que pides.
              </li>
              <li>
                Debes dar datos correctos y completos: IMEI, número de serie, usuario, enlace o lo
                que pida cada servicio. Revisa los datos antes de confirmar.
              </li>
              <li>
                Podemos rechazar una orden duplicada para el mismo identificador (por ejemplo, el
                mismo IMEI o enlace) mientras otra orden igual siga en proceso.
              </li>
            </Points>
          </Clause>

          <Clause number={5} title="Entrega y plazos">
            <p>
              Cada servicio muestra un plazo de entrega estimado, que va desde minutos hasta 72 h
              según el servicio. Los plazos son orientativos y no constituyen una garantía: pueden
              variar por causas del proveedor, del operador, del volumen de órdenes o de los datos
              recibidos. El resultado de cada orden se muestra en tu historial de órdenes.
            </p>
          </Clause>

          <Clause number={6} title="Reembolsos">
            <Points>
              <li>
                Si una orden se rechaza, su importe se reembolsa completo a tu saldo, una sola vez.
              </li>
              <li>
                Si una orden se completa solo en parte (estado «Parcial»), se reembolsa la parte no
                entregada.
              </li>
              <li>
                Puedes cancelar una orden pendiente que todavía no se haya enviado a un proveedor;
                el reembolso a tu saldo es inmediato.
              </li>
              <li>
                Los reembolsos se hacen siempre al saldo de {APP_NAME}, nunca a la tarjeta, a la
                cuenta bancaria ni al método de pago original.
              </li>
              <li>
                No hay reembolso cuando la orden no pudo realizarse por datos incorrectos que diste
                tú, ni cuando el servicio ya fue entregado.
              </li>
            </Points>
          </Clause>

          <Clause number={7} title="Servicios de terceros y uso lícito">
            <Points>
              <li>
                Muchos servicios dependen de proveedores, operadores y plataformas externas. Sus
                condiciones y cambios pueden afectar al servicio sin que podamos evitarlo.
              </li>
              <li>
                Solo puedes ordenar servicios para dispositivos y cuentas que te pertenecen o para
                los que tienes autorización de su titular.
              </li>
              <li>
                Está prohibido ordenar el desbloqueo o la limpieza de IMEI de equipos robados,
                perdidos o reportados en lista negra por robo.
              </li>
              <li>
                Está prohibido usar {APP_NAME} para fraudes, para pagar con medios de pago ajenos
                sin autorización o para cualquier actividad ilegal.
              </li>
            </Points>
          </Clause>

          <Clause number={8} title="API para revendedores">
            <p>
              Los revendedores pueden usar nuestra API para crear y consultar órdenes de forma
              automática. Las órdenes hechas por la API se rigen por estos mismos términos y se
              pagan con el mismo saldo. Eres responsable de guardar de forma segura tus credenciales
              de acceso y de lo que se haga con ellas. Podemos limitar el número de solicitudes o
              desactivar el acceso a la API si detectamos un uso abusivo.
            </p>
          </Clause>

          <Clause number={9} title="Limitación de responsabilidad">
            <p>
              {APP_NAME} se ofrece tal como está. No respondemos de daños indirectos, pérdida de
              beneficios ni de fallos de proveedores, operadores o plataformas externas. En
              cualquier caso, nuestra responsabilidad por una orden se limita al importe pagado por
              ella, que se devuelve al saldo según lo previsto en la sección de reembolsos.
            </p>
          </Clause>

          <Clause number={10} title="Suspensión de cuentas">
            <p>
              Podemos suspender o cerrar una cuenta, total o parcialmente, si incumple estos
              términos, si detectamos fraude, contracargos injustificados o actividad sospechosa, o
              si así lo exige la ley. Cuando sea posible te avisaremos por correo y te explicaremos
              el motivo. Las órdenes en curso de una cuenta suspendida pueden quedar retenidas
              mientras se revisa el caso.
            </p>
          </Clause>

          <Clause number={11} title="Privacidad y datos">
            <Points>
              <li>
                Guardamos los datos necesarios para prestar el servicio: tu nombre, tu correo
                electrónico, los datos de tus órdenes y tus movimientos de saldo.
              </li>
              <li>
                Registramos la dirección IP de inicio de sesión y de ciertas acciones por motivos de
                seguridad y prevención del fraude.
              </li>
              <li>
                Compartimos con los proveedores solo los datos imprescindibles para completar cada
                orden. No vendemos tus datos a nadie.
              </li>
              <li>Tu contraseña se guarda cifrada y nadie de nuestro equipo puede leerla.</li>
            </Points>
          </Clause>

          <Clause number={12} title="Cambios en los términos">
            <p>
              Podemos actualizar estos términos para reflejar cambios en los servicios o en la ley.
              Publicaremos la nueva versión en esta página con su fecha de actualización y, si el
              cambio es importante, te avisaremos por correo. Si sigues usando {APP_NAME} después
              del cambio, aceptas la nueva versión.
            </p>
          </Clause>

          <Clause number={13} title="Contacto">
            <p>
              Si tienes preguntas sobre estos términos, escríbenos desde la{' '}
              <AppLink to="/contacto" className={linkClass}>
                página de contacto
              </AppLink>
              . Atendemos de lunes a viernes, de 9:00 a 18:00 (UTC−5), y respondemos en 1 día hábil.
            </p>
          </Clause>
        </Card>
      </div>
    </div>
  );
}
