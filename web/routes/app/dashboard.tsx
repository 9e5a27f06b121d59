import { displayName } from '../../../shared/display-name';
import { formatUsd } from '../../../shared/money';
import { AppLink } from '../../components/ui/app-link';
import { Alert } from '../../components/ui/alert';
import { Balance } from '../../components/ui/balance';
import { Card, PageTitle } from '../../components/ui/card';
import { APP_NAME } from '../../lib/app-name';
import { SECONDARY_NAV } from '../../lib/navigation';
import { useSession } from '../../lib/session';

export function meta() {
  return [{ title: `Inicio · ${APP_NAME}` }];
}

const SHORTCUT_TEXT: Record<string, string> = {
  'nueva-orden': 'Elige un servicio y haz tu pedido con tu saldo.',
  'anadir-creditos': 'Recarga tu saldo en dólares.',
  'historial-ordenes': 'Consulta el estado y el resultado de tus órdenes.',
  'mi-perfil': 'Tu nombre, tu correo y tu contraseña.',
};

export default function Dashboard() {
  const session = useSession();
  if (session.status !== 'authenticated') return null;
  const me = session.me;
  return (
    <>
      <PageTitle
        title={`Hola, ${displayName(me?.name ?? session.user.name)}`}
        subtitle="Este es el resumen de tu cuenta."
      />
      {me ? null : (
        <Alert tone="warning">
          No pudimos cargar los datos de tu cuenta. Recarga la página en unos segundos.
        </Alert>
      )}
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        <Card>
          <h2 className="text-sm font-medium text-slate-600">Saldo disponible</h2>
          <p className="mt-2 text-3xl font-bold text-slate-900" data-testid="dashboard-balance">
            {formatUsd(me?.balance ?? '0.00')}
          </p>
          <Balance amount={me?.balance} className="mt-3" />
        </Card>
        <Card>
          <h2 className="text-sm font-medium text-slate-600">Tu cuenta</h2>
          <p className="mt-2 font-semibold break-all text-slate-900">{session.user.email}</p>
          <p className="mt-1 text-sm text-emerald-700">Correo verificado</p>
        </Card>
      </div>
      <h2 className="mt-10 text-lg font-semibold text-slate-900">Accesos directos</h2>
      <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {SECONDARY_NAV.filter((item) => item.id !== 'inicio').map((item) => (
          <li key={item.id}>
            <AppLink
              to={item.url}
              className="block h-full rounded-2xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-brand-500 hover:shadow"
            >
              <span className="font-semibold text-slate-900">{item.title}</span>
              <span className="mt-1 block text-sm text-slate-600">{SHORTCUT_TEXT[item.id]}</span>
            </AppLink>
          </li>
        ))}
      </ul>
    </>
  );
}
