import type { Contact } from '../../../shared/schemas/contact';
import type { Db } from '../../db/client';
import { contactMessage } from '../../db/schema/contact';
import { contactNotificationEmail } from '../../lib/email-templates';
import type { Logger } from '../../lib/logger';
import type { Mailer } from '../../lib/mail';
import { mailAfterCommit } from '../../lib/notify';

/**
 * Stores the message first (nothing is lost if mail fails), then e-mails the operator after the
 * insert; the mail worker marks it sent. A message that could not be e-mailed stays in the table
 * with emailed_at NULL.
 */
export async function submitContactMessage(
  deps: {
    db: Db;
    mailer: Mailer;
    logger: Logger;
    appName: string;
    operatorEmail: string | undefined;
  },
  input: Contact,
  meta: { ipAddress: string; userId: string | null },
): Promise<{ id: string }> {
  const [row] = await deps.db
    .insert(contactMessage)
    .values({ ...input, ipAddress: meta.ipAddress, userId: meta.userId })
    .returning({ id: contactMessage.id });
  if (!row) throw new Error('contact message insert returned no row');
  const operator = deps.operatorEmail;
  if (!operator) {
    deps.logger.warn(
      { id: row.id },
      'contact message stored; no CONTACT_EMAIL or ADMIN_EMAIL to notify',
    );
    return { id: row.id };
  }
  mailAfterCommit(
    deps,
    'contact message',
    { id: row.id },
    // Its delivery is recorded (emailed_at) by the mail worker once the message has gone.
    () => ({
      ...contactNotificationEmail(deps.appName, operator, input),
      ref: `contact:${row.id}`,
    }),
  );
  return { id: row.id };
}
