import type { Logger } from './logger';
import type { MailMessage, Mailer } from './mail';

/**
 * The one way an e-mail leaves after a change: called once the transaction has committed, it
 * builds the message and hands it to the mailer without holding up the request. The server's
 * mailer queues it (server/jobs/mail.ts: delivered by a worker, retried when the mail server
 * fails). A failure here is logged with its context and changes nothing that was committed.
 * Never call it inside a transaction: a rollback would leave a queued e-mail behind.
 */
export function mailAfterCommit(
  deps: { mailer: Mailer; logger: Logger },
  what: string,
  context: Record<string, unknown>,
  build: () => MailMessage | null | Promise<MailMessage | null>,
): void {
  const pending = (async () => {
    try {
      const message = await build();
      if (!message) return;
      await deps.mailer.send(message);
    } catch (err) {
      deps.logger.error({ err, ...context }, `${what} e-mail failed`);
    }
  })();
  inFlight.add(pending);
  void pending.finally(() => inFlight.delete(pending));
}

const inFlight = new Set<Promise<void>>();

/**
 * Waits for the e-mails still being built or queued (shutdown calls it before closing the
 * database, so a change committed just before SIGTERM still gets its e-mail).
 */
export async function settlePendingMail(): Promise<void> {
  for (const flush of beforeSettle) flush();
  while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
}

const beforeSettle = new Set<() => void>();

/** A buffer of e-mails still waiting to be written (sent at once when the server stops). */
export function flushOnSettle(flush: () => void): void {
  beforeSettle.add(flush);
}
