import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEnv } from './env';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'cometa-env-'));

describe('configuration', () => {
  it('works with nothing set: port 3000, embedded database, outbox mail', () => {
    const dir = tmp();
    const env = loadEnv({ DATA_DIR: dir });
    expect(env).toMatchObject({ PORT: 3000, APP_URL: 'http://localhost:3000', APP_NAME: 'Cometa' });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SMTP_URL).toBeUndefined();
    expect(env.MAIL_FROM).toBe('Cometa <no-reply@localhost>');
  });

  it('generates AUTH_SECRET once and keeps it in DATA_DIR', () => {
    const dir = tmp();
    const first = loadEnv({ DATA_DIR: dir }).AUTH_SECRET;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(dir, 'auth-secret'), 'utf8').trim()).toBe(first);
    expect(loadEnv({ DATA_DIR: dir }).AUTH_SECRET).toBe(first);
  });

  it('keeps the local mailbox off unless asked for, and never with an https APP_URL', () => {
    expect(loadEnv({ DATA_DIR: tmp() }).DEV_MAILBOX).toBe(false);
    expect(loadEnv({ DATA_DIR: tmp(), DEV_MAILBOX: 'true' }).DEV_MAILBOX).toBe(true);
    expect(() =>
      loadEnv({ DATA_DIR: tmp(), DEV_MAILBOX: 'true', APP_URL: 'https://cometa.example.com' }),
    ).toThrow(/DEV_MAILBOX/);
    expect(
      loadEnv({ DATA_DIR: tmp(), DEV_MAILBOX: 'false', APP_URL: 'https://cometa.example.com' })
        .DEV_MAILBOX,
    ).toBe(false);
  });

  it('takes a METRICS_TOKEN of at least 16 printable characters', () => {
    expect(loadEnv({ DATA_DIR: tmp() }).METRICS_TOKEN).toBeUndefined();
    expect(loadEnv({ DATA_DIR: tmp(), METRICS_TOKEN: 'a'.repeat(16) }).METRICS_TOKEN).toBe(
      'a'.repeat(16),
    );
    expect(() => loadEnv({ DATA_DIR: tmp(), METRICS_TOKEN: 'corto' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadEnv({ DATA_DIR: tmp(), METRICS_TOKEN: 'con espacios dentro 123' })).toThrow(
      /METRICS_TOKEN/,
    );
  });

  it('lists every invalid variable at once', () => {
    expect(() =>
      loadEnv({ DATA_DIR: tmp(), PORT: 'abc', DATABASE_URL: 'mysql://x', AUTH_SECRET: 'short' }),
    ).toThrow(/PORT[\s\S]*DATABASE_URL[\s\S]*AUTH_SECRET/);
  });
});
