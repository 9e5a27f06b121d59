import { isStaffRole } from '../../../shared/roles';
import { staffHome } from '../../lib/staff-access';
import { lazy, Suspense } from 'react';
import { useNavigate } from 'react-router';
import { Card, PageTitle } from '../../components/ui/card';
import { APP_NAME } from '../../lib/app-name';
import { useSession } from '../../lib/session-state';

// The enrolment (and the schemas and API calls it brings) loads with the page's content rather
// than as one of the route's own imports: every route's imports are listed in the route manifest
// that each page, the public ones too, downloads (their JavaScript budget).
const TwoFactorEnrolment = lazy(() =>
  import('../../features/two-factor/enrolment').then((m) => ({ default: m.TwoFactorEnrolment })),
);

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
  const role = session.status === 'authenticated' ? session.user.role : null;
  const isAdmin = isStaffRole(role);

  function done() {
    void navigate(isAdmin ? staffHome(role) : '/profile', { replace: true });
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
            Las cuentas del equipo deben usar la verificación en dos pasos.
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
        <Suspense
          fallback={
            <p role="status" className="text-sm text-slate-700">
              Cargando…
            </p>
          }
        >
          <TwoFactorEnrolment onDone={done} />
        </Suspense>
      </Card>
    </div>
  );
}
