import { eq } from 'drizzle-orm';
import { formatAmount } from '../../../shared/money';
import type { Db } from '../../db/client';
import { user } from '../../db/schema/auth';
import type { Env } from '../../env';
import type { Logger } from '../../lib/logger';
import type { Mailer } from '../../lib/mail';
import { mailAfterCommit } from '../../lib/notify';
import { orderCompletedEmail, orderPartialEmail, orderRejectedEmail } from './orders.emails';
import type { OrderRow } from './order-dto';

/** Tells the customer their order finished, once the change has committed. */
export function notifyCustomer(
  deps: { db: Db; env: Env; mailer: Mailer; logger: Logger },
  row: OrderRow,
  kind: 'completed' | 'rejected' | 'partial',
): void {
  mailAfterCommit(deps, `order ${kind}`, { orderId: row.id }, async () => {
    const [customer] = await deps.db
      .select({ email: user.email, name: user.name })
      .from(user)
      .where(eq(user.id, row.userId));
    if (!customer) return null;
    const base = {
      appName: deps.env.APP_NAME,
      appUrl: deps.env.APP_URL,
      to: customer.email,
      name: customer.name,
      number: row.number,
      serviceName: row.serviceName,
    };
    if (kind === 'completed') return orderCompletedEmail({ ...base, result: row.result ?? '' });
    if (kind === 'partial') return orderPartialEmail({ ...base, result: row.result ?? '' });
    return orderRejectedEmail({
      ...base,
      reason: row.rejectReason ?? '',
      price: formatAmount(row.price),
    });
  });
}
