import { useNavigate, useSearchParams } from 'react-router';
import { Card, PageTitle } from '../../components/ui/card';
import { TwoFactorEnrolment } from '../../features/two-factor/enrolment';
import { APP_NAME } from '../../lib/app-name';
import { useSession } from '../../lib/session';
import { safeNextPath } from '../../lib/session-timing';

export function meta() {
  return [{ title: `Activar la verificación en dos pasos · ${APP_NAME}` }];
}

/**
 * Turning on the verification in two steps. Admins without it are kept here by the app layout
 * (the server refuses their admin calls until then); anyone else may come to turn it on.
 */
export default function ActivateTwoFactor() {
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const isAdmin = session.status === 'authenticated' && session.user.role === 'admin';

  function done() {
    void navigate(safeNextPath(params.get('next'), isAdmin ? '/admin/ordenes' : '/profile'), {
      replace: true,
    });
  }

  return (
    <div className="mx-auto max-w-2xl">
      <PageTitle
        title="Activar la verificación en dos pasos"
        subtitle="Además de tu contraseña o enlace, al entrar te pediremos un código de tu teléfono."
      />
      {isAdmin ? (
        <p className="mb-6 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          <strong className="font-semibold">
            Las cuentas de administración deben usar la verificación en dos pasos.
          </strong>{' '}
          Con ellas se mueve el saldo de los clientes y se gestionan sus órdenes: si alguien
          consiguiera tu contraseña, sin el código de tu teléfono no podría entrar. Actívala para
          continuar a la administración.
        </p>
      ) : (
        <p className="mb-6 text-sm text-slate-700">
          Si alguien consiguiera tu contraseña o tu correo, sin el código de tu teléfono no podría
          entrar ni usar tu saldo.
        </p>
      )}
      <Card className="p-4 sm:p-6">
        <TwoFactorEnrolment onDone={done} />
      </Card>
    </div>
  );
}
