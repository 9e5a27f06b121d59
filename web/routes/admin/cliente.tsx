import { useLoaderData } from 'react-router';
import { useDates } from '../../lib/dates';
import { formatUsd } from '../../../shared/money';
import { isStaffRole, ROLE_LABELS, staffCan } from '../../../shared/roles';
import type { CustomerDetail } from '../../../shared/schemas/admin';
import { AppLink } from '../../components/ui/app-link';
import { PageTitle } from '../../components/ui/card';
import { Detail, LoadedList, Section } from '../../components/ui/section';
import { runAdminAction } from '../../features/admin/actions';
import type { AdminActionResult } from '../../features/admin/types';
import { AdjustBalance } from '../../features/admin/customer-adjust';
import { saveCreditLimit, type CreditActionResult } from '../../features/credit/credit-api';
import { CreditLimitSection } from '../../features/credit/credit-limit-section';
import {
  addNote,
  customerPage,
  fetchCustomerLedger,
  fetchCustomerOrders,
  type NoteResult,
  type TabData,
} from '../../features/admin-customers/data';
import {
  CustomerTabs,
  LedgerTab,
  NotesTab,
  OrdersTab,
  PaymentsTab,
} from '../../features/admin-customers/tabs';
import { runAdminCustomerAction } from '../../features/security/admin-actions';
import { CustomerPanel } from '../../features/security/admin-customers';
import type { AdminCustomerResult } from '../../features/security/types';
import { CustomerPricesSection } from '../../features/price-groups/customer-prices';
import { APP_NAME } from '../../lib/app-name';
import { adminPage } from '../../lib/page-loader.server';
import { staffClientGuard } from '../../lib/staff-guard';
import type { Route } from './+types/cliente';

export function meta({ data }: Route.MetaArgs) {
  const name = data?.customer.ok ? data.customer.data.name || data.customer.data.email : 'Cliente';
  return [{ title: `${name} · Clientes · ${APP_NAME}` }];
}

/** Rendered on the server with its data (docs/decisions/0016); navigations load it in the browser. */
export async function loader({ request, params }: Route.LoaderArgs) {
  return adminPage(
    request,
    (session) => customerPage(request, params.id, session.user.role),
    'customers',
  );
}

export async function clientLoader({ request, params }: Route.ClientLoaderArgs) {
  const user = await staffClientGuard('customers');
  return customerPage(request, params.id, user.role);
}

/** The page's forms, by `intent`: adjust the balance, add a note, sessions and block. */
export async function clientAction({
  request,
  params,
}: Route.ClientActionArgs): Promise<
  AdminActionResult | NoteResult | AdminCustomerResult | CreditActionResult
> {
  const form = await request.formData();
  if (form.get('intent') === 'credit-limit') return saveCreditLimit(params.id, form);
  const intent = form.get('intent');
  if (intent === 'note') {
    const body = form.get('body');
    return addNote(params.id, typeof body === 'string' ? body : '');
  }
  if (intent === 'adjust') {
    const amount = form.get('amount');
    const text = typeof amount === 'string' ? amount.trim() : '';
    if (form.get('kind') === 'debit' && text !== '' && !text.startsWith('-'))
      form.set('amount', `-${text}`);
    if (!form.get('idempotencyKey')) form.set('idempotencyKey', crypto.randomUUID());
    form.set('userId', params.id);
    return runAdminAction(form);
  }
  form.set('id', params.id);
  return runAdminCustomerAction(form);
}

export default function AdminCliente() {
  const { id, customer, data, tabs, role } = useLoaderData<typeof loader>();
  return (
    <>
      <p className="mb-2 text-sm">
        <AppLink to="/admin/clientes" className="text-brand-800 underline-offset-2 hover:underline">
          ← Clientes
        </AppLink>
      </p>
      <LoadedList value={customer} what="el cliente">
        {(c) => (
          <div className="flex flex-col gap-6">
            <Header customer={c} />
            {staffCan(role, 'money') ? (
              <>
                <CreditLimitSection customer={c} />
                <Section
                  id="ajustar-saldo"
                  title="Ajustar saldo"
                  description="Un abono o un descuento con su motivo; un descuento nunca deja su saldo por debajo de cero (o de menos su límite de crédito, si tiene)."
                >
                  <AdjustBalance userId={id} />
                </Section>
              </>
            ) : null}
            {staffCan(role, 'catalogue') ? <CustomerPricesSection userId={id} /> : null}
            <Section id="datos-cliente" title="Su actividad">
              <CustomerTabs current={data.tab} tabs={tabs}>
                <TabContent customer={c} data={data} role={role} />
              </CustomerTabs>
            </Section>
          </div>
        )}
      </LoadedList>
    </>
  );
}

function Header({ customer: c }: { customer: CustomerDetail }) {
  return (
    <div>
      <PageTitle title={c.name || c.email} subtitle={c.email} />
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="customer-header">
        {c.balance !== null && c.held !== null && c.spend !== null ? (
          <>
            <Detail label="Su saldo">
              <strong className="text-lg tabular-nums" data-testid="customer-balance">
                {formatUsd(c.balance)}
              </strong>
            </Detail>
            <Detail label="En proceso">
              <span className="tabular-nums">{formatUsd(c.held)}</span>
            </Detail>
            <Detail label="Gastado">
              <span className="tabular-nums">{formatUsd(c.spend)}</span>
              <span className="block text-xs text-slate-600">
                {c.orders === 1 ? '1 orden' : `${c.orders} órdenes`}
              </span>
            </Detail>
          </>
        ) : (
          <Detail label="Órdenes">
            <span className="tabular-nums">{c.orders}</span>
          </Detail>
        )}
        <Detail label="Estado">
          <span className="flex flex-wrap gap-1" data-testid="customer-badges">
            <Badge tone={c.blocked ? 'red' : 'green'}>{c.blocked ? 'Bloqueado' : 'Activo'}</Badge>
            <Badge tone={c.emailVerified ? 'green' : 'amber'}>
              {c.emailVerified ? 'Correo verificado' : 'Correo sin verificar'}
            </Badge>
            <Badge tone={c.twoFactorEnabled ? 'green' : 'slate'}>
              {c.twoFactorEnabled ? 'Dos pasos activados' : 'Sin dos pasos'}
            </Badge>
            {isStaffRole(c.role) ? <Badge tone="slate">{ROLE_LABELS[c.role]}</Badge> : null}
          </span>
        </Detail>
      </dl>
    </div>
  );
}

const BADGE = {
  red: 'bg-red-100 text-red-800',
  green: 'bg-emerald-100 text-emerald-800',
  amber: 'bg-amber-100 text-amber-900',
  slate: 'bg-slate-200 text-slate-800',
};

function Badge({ tone, children }: { tone: keyof typeof BADGE; children: string }) {
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${BADGE[tone]}`}>
      {children}
    </span>
  );
}

function TabContent({
  customer,
  data,
  role,
}: {
  customer: CustomerDetail;
  data: TabData;
  role: string;
}) {
  const { dateTime: formatDateTime } = useDates();
  const id = customer.id;
  switch (data.tab) {
    case 'ordenes':
      return (
        <LoadedList value={data.orders} what="sus órdenes">
          {(page) => <OrdersTab first={page} next={(cursor) => fetchCustomerOrders(id, cursor)} />}
        </LoadedList>
      );
    case 'movimientos':
      return (
        <LoadedList value={data.ledger} what="sus movimientos">
          {(page) => <LedgerTab first={page} next={(cursor) => fetchCustomerLedger(id, cursor)} />}
        </LoadedList>
      );
    case 'pagos':
      return (
        <LoadedList value={data.payments} what="sus pagos">
          {(list) => <PaymentsTab items={list.items} />}
        </LoadedList>
      );
    case 'seguridad':
      return (
        <LoadedList value={data.security} what="su seguridad">
          {(security) => (
            <div className="flex flex-col gap-4">
              <dl className="grid gap-3 sm:grid-cols-2">
                <Detail label="Sesiones abiertas">{customer.sessions}</Detail>
                <Detail label="Último acceso">
                  {customer.lastSignInAt ? formatDateTime(customer.lastSignInAt) : 'Nunca'}
                </Detail>
              </dl>
              <section aria-label="Seguridad de la cuenta">
                <CustomerPanel customer={security} />
              </section>
            </div>
          )}
        </LoadedList>
      );
    case 'notas':
      return (
        <LoadedList value={data.notes} what="las notas">
          {(list) => <NotesTab notes={list.items} canWrite={staffCan(role, 'money')} />}
        </LoadedList>
      );
  }
}
