// /soporte/nuevo «Nuevo ticket»: from /soporte, or from an order (?orden=) or a top-up (?pago=).
import { Link, useLoaderData } from 'react-router';
import { Card, PageTitle } from '../../components/ui/card';
import { runCreateTicket } from '../../features/tickets/customer-actions';
import {
  EMPTY_DRAFT,
  orderDraft,
  paymentDraft,
  type NewTicketDraft,
} from '../../features/tickets/draft';
import { NewTicketForm, type OrderChoice } from '../../features/tickets/new-ticket-form';
import { getMyOrder, listMyOrders } from '../../features/order-history/orders-api';
import { getTopups } from '../../features/wallet/wallet-api';
import type { OrderDto } from '../../../shared/schemas/orders';
import { APP_NAME } from '../../lib/app-name';
import { signedInPage } from '../../lib/page-loader.server';
import type { Route } from './+types/soporte-nuevo';

export function meta() {
  return [{ title: `Nuevo ticket · ${APP_NAME}` }];
}

const choice = (o: OrderDto): OrderChoice => ({
  id: o.id,
  number: o.number,
  serviceName: o.serviceName,
  statusLabel: o.statusLabel,
});

/**
 * The picker's orders (the latest page of the history, with the order of `?orden=` first) and the
 * draft an entry point starts from. An order or top-up that cannot be read leaves the form empty.
 */
async function newTicketPage(request: Request) {
  const params = new URL(request.url).searchParams;
  const orderId = params.get('orden');
  const paymentId = params.get('pago');
  const empty = { status: '', category: '', q: '', from: '', to: '' };
  const [recent, linked, topups] = await Promise.all([
    listMyOrders(empty).then(
      (page) => page.items,
      () => [] as OrderDto[],
    ),
    orderId ? getMyOrder(orderId).catch(() => null) : Promise.resolve(null),
    paymentId
      ? getTopups().then(
          (r) => r.items,
          () => [],
        )
      : Promise.resolve([]),
  ]);
  const orders = [
    ...(linked ? [choice(linked)] : []),
    ...recent.filter((o) => o.id !== linked?.id).map(choice),
  ];
  const payment = topups.find((t) => t.id === paymentId);
  const draft: NewTicketDraft = linked
    ? orderDraft(linked)
    : payment
      ? paymentDraft(payment)
      : EMPTY_DRAFT;
  return { orders, draft };
}

export async function loader({ request }: Route.LoaderArgs) {
  return signedInPage(request, () => newTicketPage(request));
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  return newTicketPage(request);
}

export async function clientAction({ request }: Route.ClientActionArgs) {
  return runCreateTicket(await request.formData());
}

export default function SoporteNuevo() {
  const { orders, draft } = useLoaderData<typeof loader>();
  return (
    <>
      <p className="mb-2 text-sm">
        <Link to="/soporte" className="text-brand-700 font-medium underline">
          Volver a Soporte
        </Link>
      </p>
      <PageTitle
        title="Nuevo ticket"
        subtitle="Cuéntanos el problema; si es sobre una orden, márcala para que la veamos enseguida."
      />
      <Card className="max-w-2xl p-4 sm:p-6">
        <NewTicketForm key={draft.orderIds.join() + draft.subject} orders={orders} draft={draft} />
      </Card>
    </>
  );
}
