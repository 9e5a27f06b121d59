// What the new-ticket form starts with: empty from /soporte, or filled in by an entry point
// («Tengo un problema con esta orden» on an order, «… con esta recarga» on a top-up).
import { formatUsd } from '../../../shared/money';
import type { TicketCategory } from '../../../shared/schemas/tickets';

export type NewTicketDraft = {
  category: TicketCategory | '';
  subject: string;
  orderIds: string[];
  message: string;
};

export const EMPTY_DRAFT: NewTicketDraft = { category: '', subject: '', orderIds: [], message: '' };

/** From an order: category Orden, the order linked, its number in the subject. */
export function orderDraft(order: { id: string; number: number }): NewTicketDraft {
  return {
    category: 'order',
    subject: `Problema con la orden #${order.number}`,
    orderIds: [order.id],
    message: '',
  };
}

/** From a top-up: category Pago, its amount in the subject, method and reference in the message. */
export function paymentDraft(payment: {
  methodName: string;
  amount: string;
  reference: string | null;
}): NewTicketDraft {
  const amount = formatUsd(payment.amount);
  const reference = payment.reference ? `, referencia ${payment.reference}` : '';
  return {
    category: 'payment',
    subject: `Problema con mi recarga de ${amount}`,
    orderIds: [],
    message: `Recarga por ${payment.methodName} de ${amount}${reference}.\n\n`,
  };
}
