// The data of /soporte/nuevo: the customer's recent orders for the picker, and what an entry point
// («Tengo un problema con esta orden», or with a top-up) fills in.
import { formatUsd } from '../../../shared/money';
import type { OrderDto } from '../../../shared/schemas/orders';
import type { TicketCategory } from '../../../shared/schemas/tickets';
import { getMyOrder, listMyOrders } from '../order-history/orders-api';
import { getTopups } from '../wallet/wallet-api';

export type OrderChoice = Pick<OrderDto, 'id' | 'number' | 'serviceName' | 'statusLabel'>;

export type NewTicketDraft = {
  category: TicketCategory | '';
  subject: string;
  orderIds: string[];
  message: string;
};

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
export async function newTicketPage(request: Request) {
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
    paymentId ? getTopups().then((r) => r.items, () => []) : Promise.resolve([]),
  ]);
  const orders = [
    ...(linked ? [choice(linked)] : []),
    ...recent.filter((o) => o.id !== linked?.id).map(choice),
  ];
  const payment = topups.find((t) => t.id === paymentId);
  const draft: NewTicketDraft = linked
    ? {
        category: 'order',
        subject: `Problema con la orden #${linked.number}`,
        orderIds: [linked.id],
        message: '',
      }
    : payment
      ? {
          category: 'payment',
          subject: `Problema con mi recarga de ${formatUsd(payment.amount)}`,
          orderIds: [],
          message: `Recarga por ${payment.methodName} de ${formatUsd(payment.amount)}${payment.reference ? `, referencia ${payment.reference}` : ''}.\n\n`,
        }
      : { category: '', subject: '', orderIds: [], message: '' };
  return { orders, draft };
}
