import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from './logger';

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
  /** What this message is about, recorded once it is delivered ("contact:<id>"); not sent. */
  ref?: string;
};

export type Mailer = {
  send: (message: MailMessage) => Promise<void>;
  /** Where messages go: 'smtp', or 'outbox' (files in DATA_DIR/outbox). */
  kind: 'smtp' | 'outbox';
};

export type OutboxEntry = {
  id: string;
  to: string;
  from: string;
  subject: string;
  text: string;
  links: string[];
  date: string;
};

export function outboxDir(dataDir: string): string {
  return path.join(dataDir, 'outbox');
}

/** SMTP when SMTP_URL is set; otherwise every message is written as .eml (+ .json index) to the outbox. */
export function createMailer(options: {
  smtpUrl?: string | undefined;
  from: string;
  dataDir: string;
  logger: Logger;
}): Mailer {
  const { from, logger } = options;
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      kind: 'smtp',
      async send({ ref: _ref, ...message }) {
        await transport.sendMail({ from, ...message });
        logger.info({ to: message.to, subject: message.subject }, 'mail sent');
      },
    };
  }
  const dir = outboxDir(options.dataDir);
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  return {
    kind: 'outbox',
    async send({ ref: _ref, ...message }) {
      await mkdir(dir, { recursive: true });
      const info = await transport.sendMail({ from, ...message });
      const id = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}`;
      const entry: OutboxEntry = {
        id,
        to: message.to,
        from,
        subject: message.subject,
        text: message.text,
        links: extractLinks(message.text),
        date: new Date().toISOString(),
      };
      // Written under a temporary name and renamed, so a reader never sees half a file.
      await writeAtomically(path.join(dir, `${id}.eml`), info.message as Buffer);
      await writeAtomically(path.join(dir, `${id}.json`), JSON.stringify(entry, null, 2));
      logger.info(
        { to: message.to, subject: message.subject, file: `${id}.eml` },
        'mail written to outbox',
      );
    },
  };
}

async function writeAtomically(file: string, data: string | Buffer): Promise<void> {
  const temp = `${file}.${randomUUID().slice(0, 8)}.tmp`;
  await writeFile(temp, data);
  await rename(temp, file);
}

export function extractLinks(text: string): string[] {
  return Array.from(new Set(text.match(/https?:\/\/[^\s<>"')]+/g) ?? []));
}

/** The outbox, newest first. */
export async function readOutbox(dataDir: string): Promise<OutboxEntry[]> {
  const dir = outboxDir(dataDir);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const entries = await Promise.all(
    names
      // Text messages share the folder (server/lib/sms.ts) as sms-*.json.
      .filter((n) => n.endsWith('.json') && !n.startsWith('sms-'))
      .map(async (n) => JSON.parse(await readFile(path.join(dir, n), 'utf8')) as OutboxEntry),
  );
  return entries.sort((a, b) => (a.id < b.id ? 1 : -1));
}
