// E-mail through the job queue: sending a message enqueues it; a worker delivers it with the real
// mailer and pg-boss retries with back-off when the mail server fails (8 tries, from 30 s). A
// message carrying a `ref` has its delivery recorded (a contact message's `emailed_at`).
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { contactMessage } from '../db/schema/contact';
import type { Logger } from '../lib/logger';
import type { MailMessage, Mailer } from '../lib/mail';
import type { JobQueue } from './queue';

type MailJob = { message: MailMessage };

/** A mailer whose `send` only enqueues: it resolves once the message is safely queued. */
export function queuedMailer(jobs: JobQueue, mailer: Mailer): Mailer {
  return {
    kind: mailer.kind,
    async send(message) {
      await jobs.send('mail', { message } satisfies MailJob);
      jobs.wake('mail');
    },
  };
}

/** What a delivered message's `ref` records. */
async function recordDelivery(db: Db, ref: string | undefined): Promise<void> {
  const contactId = ref?.startsWith('contact:') ? ref.slice('contact:'.length) : null;
  if (contactId) {
    await db
      .update(contactMessage)
      .set({ emailedAt: new Date() })
      .where(eq(contactMessage.id, contactId));
  }
}

/**
 * Delivers queued messages, one per job (a failed batch would be retried whole and resend the
 * messages that went through). A failure throws, so pg-boss retries it later.
 */
export async function startMailWorkers(
  deps: { db: Db; jobs: JobQueue; mailer: Mailer; logger: Logger },
  options: { workers?: number; pollingIntervalSeconds?: number } = {},
): Promise<void> {
  for (let i = 0; i < (options.workers ?? 2); i += 1) {
    await deps.jobs.work<MailJob>(
      'mail',
      { batchSize: 1, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 },
      async ([job]) => {
        if (!job) return;
        const { ref, ...message } = job.data.message;
        try {
          await deps.mailer.send(message);
        } catch (err) {
          deps.logger.warn(
            { err, to: message.to, subject: message.subject },
            'mail failed; retried later',
          );
          throw err;
        }
        await recordDelivery(deps.db, ref);
      },
    );
  }
}
