import { useLoaderData, type ShouldRevalidateFunctionArgs } from 'react-router';
import { PageTitle } from '../../components/ui/card';
import { changesLists, loadAdminPayments, runAdminAction } from '../../features/admin/actions';
import { BalanceAdjust } from '../../features/admin/balance-adjust';
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

/** Pending requests, manual methods and voucher batches, in parallel (the layout checks the role too). */
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
  const { requests, methods, batches } = useLoaderData<typeof clientLoader>();
  return (
    <>
      <PageTitle
        title="Pagos y saldo"
        subtitle="Revisa las recargas manuales, configura los métodos de pago, crea códigos de recarga y corrige saldos."
      />
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
          id="metodos"
          title="Métodos de pago manual"
          description="Los métodos activos aparecen a los clientes en «Añadir créditos»."
        >
          <LoadedList value={methods} what="los métodos de pago">
            {(items) => <PaymentMethods methods={items} />}
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
