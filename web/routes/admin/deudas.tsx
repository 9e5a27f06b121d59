import { useLoaderData } from 'react-router';
import { formatUsd } from '../../../shared/money';
import { AppLink } from '../../components/ui/app-link';
import { Card, PageTitle } from '../../components/ui/card';
import { LoadedList } from '../../components/ui/section';
import { fetchDebtors } from '../../features/credit/credit-api';
import { APP_NAME } from '../../lib/app-name';
import { settle } from '../../lib/loaded';
import { adminPage } from '../../lib/page-loader.server';
import { staffClientGuard } from '../../lib/staff-guard';
import type { Route } from './+types/deudas';

export function meta() {
  return [{ title: `Deudas · ${APP_NAME}` }];
}

async function load() {
  return { debtors: await settle(fetchDebtors()) };
}

/** Rendered on the server with its data (docs/decisions/0016); navigations load it in the browser. */
export async function loader({ request }: Route.LoaderArgs) {
  return adminPage(request, load, 'money');
}

export async function clientLoader() {
  await staffClientGuard('money');
  return load();
}

/** Who owes what: the customers on credit with a negative Saldo, largest debt first. */
export default function AdminDeudas() {
  const { debtors } = useLoaderData<typeof loader>();
  return (
    <>
      <PageTitle
        title="Deudas"
        subtitle="Los clientes que compraron a crédito y todavía deben, de la deuda mayor a la menor. Cada recarga paga primero su deuda."
      />
      <LoadedList value={debtors} what="las deudas">
        {(list) =>
          list.items.length === 0 ? (
            <Card>
              <p className="text-slate-700">Nadie debe nada ahora.</p>
            </Card>
          ) : (
            <Card className="p-4 sm:p-6">
              <p className="text-sm text-slate-700" data-testid="debts-total">
                {list.items.length === 1 ? '1 cliente debe' : `${list.items.length} clientes deben`}{' '}
                <strong className="tabular-nums">{formatUsd(list.total)}</strong> en total.
              </p>
              <ul className="mt-4 divide-y divide-slate-200" aria-label="Clientes con deuda">
                {list.items.map((d) => (
                  <li
                    key={d.userId}
                    className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:justify-between"
                    data-testid="debtor"
                  >
                    <div className="min-w-0">
                      <AppLink
                        to={`/admin/clientes/${encodeURIComponent(d.userId)}`}
                        className="font-semibold break-words text-brand-800 underline-offset-2 hover:underline"
                      >
                        {d.name || d.email}
                      </AppLink>
                      {d.name ? (
                        <span className="block text-sm break-all text-slate-600">{d.email}</span>
                      ) : null}
                    </div>
                    <div className="flex flex-wrap gap-x-4 text-sm sm:text-right">
                      <span>
                        Debe{' '}
                        <strong className="text-red-800 tabular-nums">{formatUsd(d.debt)}</strong>
                      </span>
                      <span className="text-slate-700">
                        Límite{' '}
                        <span className="tabular-nums">
                          {d.creditLimit === '0.00' ? 'sin crédito' : formatUsd(d.creditLimit)}
                        </span>
                      </span>
                      {d.overLimit ? (
                        <span className="font-semibold text-amber-900">Debe más que su límite</span>
                      ) : null}
                    </div>
                  </li>
                ))}
              </ul>
            </Card>
          )
        }
      </LoadedList>
    </>
  );
}
