import type { Logger } from './logger';
import type { MailMessage, Mailer } from './mail';

/**
 * The one way an e-mail leaves after a change: called once the transaction has committed, it
 * builds and sends the message without holding up the request. A failure is logged with its
 * context and changes nothing that was committed (the person can ask again, or the operator sees
 * the log). Never call it inside a transaction: a rollback would leave a sent e-mail behind.
 */
export function mailAfterCommit(
  deps: { mailer: Mailer; logger: Logger },
  what: string,
  context: Record<string, unknown>,
  build: () => MailMessage | null | Promise<MailMessage | null>,
  onSent?: () => Promise<void>,
): void {
  void (async () => {
    try {
      const message = await build();
      if (!message) return;
      await deps.mailer.send(message);
      await onSent?.();
    } catch (err) {
      deps.logger.error({ err, ...context }, `${what} e-mail failed`);
    }
  })();
}
