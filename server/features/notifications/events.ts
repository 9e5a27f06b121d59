// Instant notifications: a domain event is written as a `notify` job in the transaction that
// causes it (it commits or rolls back with the change). The `notify` worker
// (server/features/telegram/) decides who receives it (staff by their chosen kinds, the customer
// concerned when their Telegram is linked) and queues one `telegram-send` job per message.
import type { Tx } from '../../db/client';
import { sendInTx } from '../../jobs/queue';

export type NotificationEvent =
  /** A customer opened a ticket: staff who chose `ticket.new`. */
  | { kind: 'ticket.new'; ticketId: string }
  /**
   * A new public message in a ticket. From the customer: staff who chose `ticket.reply` (the
   * assignee only, when the ticket has one). From staff: the ticket's customer.
   */
  | { kind: 'ticket.reply'; ticketId: string; messageId: string }
  /** An order went to «Revisar» (its forwarding waits for a decision). */
  | { kind: 'order.review'; orderId: string }
  /** A supplier started failing or its balance went below what its orders need. */
  | { kind: 'supplier.failing'; supplierId: string; reason: 'failing' | 'low_balance' }
  /** A customer declared a manual payment that waits for approval. */
  | { kind: 'payment.pending'; paymentId: string }
  /** A customer's order was refused at their credit limit, or a debit reached it. */
  | { kind: 'credit.limit'; userId: string }
  /** The customer's order completed (with its result) or was rejected (with its reason). */
  | { kind: 'order.completed'; orderId: string }
  | { kind: 'order.rejected'; orderId: string }
  /** A stock service's available items dropped to its low-stock threshold (once per crossing). */
  | { kind: 'stock.low'; serviceId: string };

/** Writes the event's job inside `tx`. */
export async function queueNotification(tx: Tx, event: NotificationEvent): Promise<void> {
  await sendInTx(tx, 'notify', event);
}
