import { useLoaderData, type ShouldRevalidateFunctionArgs } from 'react-router';
import { PageTitle } from '../../components/ui/card';
import { changesLists, loadAdminPayments, runAdminAction } from '../../features/admin/actions';
import { AccountFlags } from '../../features/admin/account-flags';
import { BalanceAdjust } from '../../features/admin/balance-adjust';
import { GatewaySettings } from '../../features/admin/gateway-settings';
import { HeldTopups } from '../../features/admin/held-topups';
import { PaymentSettings } from '../../features/admin/payment-settings';
import { AppLink } from '../../components/ui/app-link';
import { PaymentMethods } from '../../features/admin/payment-methods';
import { PendingRequests } from '../../features/admin/pending-requests';
import { LoadedList, Section } from '../../components/ui/section';
import type { AdminActionResult } from '../../features/admin/types';
import { NewVoucherBatch, VoucherBatches } from '../../features/admin/voucher-batches';
import { APP_NAME } from '../../lib/app-name';
import { staffClientGuard } from '../../lib/staff-guard';
import type { Route } from './+types/pagos';

export function meta() {
  return [{ title: `Pagos y saldo · ${APP_NAME}` }];
}

/**
 * Pending requests, held top-ups, blocked accounts, the methods, the payment settings and voucher
 * batches, in parallel (the layout checks the role too).
 */
export async function clientLoader() {
  await staffClientGuard('money');
  return loadAdminPayments();
}
clientLoader.hydrate = true as const;

/** One action for every form of the page, told apart by `intent`. */
export async function clientAction({
  request,
}: Route.ClientActionArgs): Promise<AdminActionResult> {
  return runAdminAction(await request.formData());
}

/** A customer search or a balance adjustment does not touch the lists: keep them. */
export function shouldRevalidate({
  formData,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (formData && !changesLists(formData)) return false;
  return defaultShouldRevalidate;
}

export default function AdminPagos() {
  const { requests, held, flags, gateways, settings, methods, batches } =
    useLoaderData<typeof clientLoader>();
  return (
    <>
      <PageTitle
        title="Pagos y saldo"
        subtitle="Revisa las recargas manuales, configura los métodos de pago, crea códigos de recarga y corrige saldos."
      />
      <p className="-mt-3 mb-6 text-sm text-slate-700">
        Los recibos numerados de cada recarga están en{' '}
        <AppLink to="/admin/recibos" className="font-semibold text-brand-800 underline">
          Recibos
        </AppLink>
        .
      </p>
      <div className="flex flex-col gap-6">
        <Section
          id="solicitudes"
          title="Solicitudes pendientes"
          description="Al aprobar, el importe se acredita al cliente al momento. Al rechazar, le avisamos por correo con el motivo."
        >
          <LoadedList value={requests} what="las solicitudes">
            {(items) => <PendingRequests requests={items} />}
          </LoadedList>
        </Section>
        <Section
          id="revision"
          title="Recargas en revisión"
          description="Recargas ya pagadas que retuvimos por la regla de fraude. Al aprobar, el importe se acredita al momento; al rechazar, no se acredita nada."
        >
          <LoadedList value={held} what="las recargas en revisión">
            {(items) => <HeldTopups topups={items} />}
          </LoadedList>
        </Section>
        <Section
          id="bloqueadas"
          title="Cuentas bloqueadas por reversión"
          description="Cuando se revierte un pago ya acreditado (reembolso o contracargo), lo descontamos del saldo aunque quede negativo y la cuenta no puede hacer órdenes hasta que la desbloquees."
        >
          <LoadedList value={flags} what="las cuentas bloqueadas">
            {(items) => <AccountFlags flags={items} />}
          </LoadedList>
        </Section>
        <Section
          id="automaticos"
          title="Métodos automáticos"
          description="Tarjeta, PayPal, criptomonedas y Mercado Pago. La comisión se suma a lo que paga el cliente; los límites son del importe que recibe su saldo."
        >
          <LoadedList value={gateways} what="los métodos automáticos">
            {(items) => <GatewaySettings gateways={items} />}
          </LoadedList>
        </Section>
        <Section
          id="metodos"
          title="Métodos de pago manual"
          description="Los métodos activos aparecen a los clientes en «Añadir créditos»."
        >
          <LoadedList value={methods} what="los métodos de pago">
            {(items) => <PaymentMethods methods={items} />}
          </LoadedList>
        </Section>
        <Section
          id="cobro"
          title="Ajustes de cobro"
          description="La retención de recargas nuevas, el tipo de cambio de Mercado Pago y los datos que se imprimen en los recibos."
        >
          <LoadedList value={settings} what="los ajustes de cobro">
            {(data) => <PaymentSettings settings={data} />}
          </LoadedList>
        </Section>
        <Section
          id="codigos"
          title="Códigos de recarga"
          description="Cada código se canjea una sola vez y suma su importe al saldo del cliente."
        >
          <NewVoucherBatch />
          <h3 className="mt-8 mb-3 text-base font-semibold text-slate-900">Lotes creados</h3>
          <LoadedList value={batches} what="los lotes de códigos">
            {(items) => <VoucherBatches batches={items} />}
          </LoadedList>
        </Section>
        <Section
          id="ajustes"
          title="Ajustar saldo de un cliente"
          description="Busca al cliente por nombre o correo. Cada ajuste queda registrado con tu usuario y el motivo."
        >
          <BalanceAdjust />
        </Section>
      </div>
    </>
  );
}
