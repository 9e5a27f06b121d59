// Text messages (the phone sign-in codes): through Twilio when TWILIO_ACCOUNT_SID,
// TWILIO_AUTH_TOKEN and TWILIO_FROM are set, otherwise written to the local outbox beside the
// e-mails (DATA_DIR/outbox/sms-<id>.json), shown on the local mailbox page. The app sends through
// the job queue (server/jobs/sms.ts); this is what the worker calls.
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from './logger';
import { outboxDir } from './mail';

export type SmsMessage = { to: string; text: string };

export type SmsSender = {
  send: (message: SmsMessage) => Promise<void>;
  kind: 'twilio' | 'outbox';
};

export type SmsOutboxEntry = { id: string; kind: 'sms'; to: string; text: string; date: string };

export type TwilioConfig = { accountSid: string; authToken: string; from: string };

export function createSmsSender(options: {
  twilio: TwilioConfig | null;
  dataDir: string;
  logger: Logger;
}): SmsSender {
  const { logger } = options;
  const config = options.twilio;
  if (config) {
    // Loaded only when configured: the SDK is large and most installs never use it.
    let client: Promise<{
      messages: { create: (m: { to: string; from: string; body: string }) => Promise<unknown> };
    }> | null = null;
    return {
      kind: 'twilio',
      async send({ to, text }) {
        client ??= import('twilio').then((m) => m.default(config.accountSid, config.authToken));
        await (await client).messages.create({ to, from: config.from, body: text });
        logger.info({ to: maskNumber(to) }, 'sms sent');
      },
    };
  }
  const dir = outboxDir(options.dataDir);
  return {
    kind: 'outbox',
    async send({ to, text }) {
      await mkdir(dir, { recursive: true });
      const id = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}`;
      const entry: SmsOutboxEntry = { id, kind: 'sms', to, text, date: new Date().toISOString() };
      const file = path.join(dir, `sms-${id}.json`);
      await writeFile(`${file}.tmp`, JSON.stringify(entry, null, 2));
      await rename(`${file}.tmp`, file);
      logger.info({ to: maskNumber(to), file: path.basename(file) }, 'sms written to the outbox');
    },
  };
}

/** +34600111222 → +34•••••1222: enough for a log line, not the whole number. */
export function maskNumber(number: string): string {
  return number.length <= 6 ? '•••' : `${number.slice(0, 3)}•••••${number.slice(-4)}`;
}

/** The text messages in the local outbox, newest first. */
export async function readSmsOutbox(dataDir: string): Promise<SmsOutboxEntry[]> {
  const dir = outboxDir(dataDir);
  const names = await readdir(dir).catch(() => [] as string[]);
  const entries = await Promise.all(
    names
      .filter((n) => n.startsWith('sms-') && n.endsWith('.json'))
      .map(async (n) => JSON.parse(await readFile(path.join(dir, n), 'utf8')) as SmsOutboxEntry),
  );
  return entries.sort((a, b) => (a.id < b.id ? 1 : -1));
}
