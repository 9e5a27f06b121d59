import { eq } from 'drizzle-orm';
import { formatAmount } from '../../../shared/money';
import type { Db } from '../../db/client';
import { user } from '../../db/schema/auth';
import type { Env } from '../../env';
import type { Logger } from '../../lib/logger';
import type { MailMessage, Mailer } from '../../lib/mail';
import { flushOnSettle, mailAfterCommit } from '../../lib/notify';
import {
  orderCompletedEmail,
  orderPartialEmail,
  orderRejectedEmail,
  orderTarget,
  ordersFinishedSummaryEmail,
  type FinishedOrderLine,
} from './orders.emails';
import type { OrderRow } from './order-dto';

/** What the e-mail says instead of an item delivered from stock. */
export const STOCK_READY_RESULT =
  'tu artículo está listo. Por seguridad no lo enviamos por correo: míralo en la orden.';

type Deps = { db: Db; env: Env; mailer: Mailer; logger: Logger };
type Kind = 'completed' | 'rejected' | 'partial';

function finishedLine(row: OrderRow, kind: Kind): FinishedOrderLine {
  const base = {
    id: row.id,
    number: row.number,
    serviceName: row.serviceName,
    target: orderTarget(row),
  };
  if (kind === 'rejected')
    return {
      ...base,
      kind,
      reason: row.rejectReason ?? '',
      price: formatAmount(row.price),
    };
  // An item from stock is never e-mailed: the e-mail says it is ready, the order shows it.
  if (row.fromStock) return { ...base, kind, result: STOCK_READY_RESULT };
  return { ...base, kind, result: row.result ?? '' };
}

function oneOrderEmail(
  base: { appName: string; appUrl: string; to: string; name: string },
  line: FinishedOrderLine,
): MailMessage {
  const input = { ...base, ...line };
  if (line.kind === 'rejected') return orderRejectedEmail({ ...input, ...line });
  if (line.kind === 'partial') return orderPartialEmail({ ...input, result: line.result });
  return orderCompletedEmail({ ...input, result: line.result });
}

/** Tells the customer their order finished, once the change has committed. */
export function notifyCustomer(deps: Deps, row: OrderRow, kind: Kind): void {
  notifyCustomers(deps, [{ row, kind }]);
}

/**
 * Tells customers their orders finished, once the changes have committed: one e-mail per
 * customer, about the order alone, or a summary listing each when several finished together.
 */
export function notifyCustomers(deps: Deps, finished: { row: OrderRow; kind: Kind }[]): void {
  const byCustomer = new Map<string, { row: OrderRow; kind: Kind }[]>();
  for (const f of finished) {
    const list = byCustomer.get(f.row.userId) ?? [];
    list.push(f);
    byCustomer.set(f.row.userId, list);
  }
  for (const [userId, items] of byCustomer) {
    const orderIds = items.map((i) => i.row.id);
    const what = items.length === 1 ? `order ${items[0]?.kind ?? ''}` : 'orders finished summary';
    mailAfterCommit(deps, what, { orderIds }, async () => {
      const [customer] = await deps.db
        .select({ email: user.email, name: user.name })
        .from(user)
        .where(eq(user.id, userId));
      if (!customer) return null;
      const base = {
        appName: deps.env.APP_NAME,
        appUrl: deps.env.APP_URL,
        to: customer.email,
        name: customer.name,
      };
      const lines = items.map((i) => finishedLine(i.row, i.kind));
      const [only] = lines;
      if (lines.length === 1 && only) return oneOrderEmail(base, only);
      return ordersFinishedSummaryEmail({ ...base, lines });
    });
  }
}

// Orders a supplier refuses one after the other: each dispatch is its own job, so a bulk order of
// 50 lines refused by the supplier would otherwise be 50 e-mails. The refusals of one customer
// are gathered for ORDER_NOTICE_WINDOW_MS, then told in one e-mail (the order alone, or the
// summary). Held in this process only: a stop flushes them (settlePendingMail); a crash within
// the window loses that e-mail, never the refund or the order's state, which are committed.
type Held = { deps: Deps; items: { row: OrderRow; kind: Kind }[]; timer: NodeJS.Timeout };
const held = new Map<string, Held>();

function flushHeld(userId: string): void {
  const entry = held.get(userId);
  if (!entry) return;
  held.delete(userId);
  clearTimeout(entry.timer);
  notifyCustomers(entry.deps, entry.items);
}

flushOnSettle(() => {
  for (const userId of [...held.keys()]) flushHeld(userId);
});

/** Tells the customer their order finished, together with the others finishing these seconds. */
export function notifyCustomerSoon(deps: Deps, row: OrderRow, kind: Kind): void {
  const entry = held.get(row.userId);
  if (entry) {
    entry.items.push({ row, kind });
    return;
  }
  const timer = setTimeout(() => flushHeld(row.userId), deps.env.ORDER_NOTICE_WINDOW_MS);
  held.set(row.userId, { deps, items: [{ row, kind }], timer });
}
