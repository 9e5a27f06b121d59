import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../env';
import { escapeHtml, firstLines } from './notify.service';
import { availableKinds, webhookSecretMatches } from './telegram.service';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'cometa-telegram-'));
const TOKEN = '123456789:AAExampleTokenExampleToken_0123';

describe('Telegram configuration', () => {
  it('is off without a token, on with it; the secret is checked as Telegram defines it', () => {
    expect(loadEnv({ DATA_DIR: tmp() }).telegram).toBeNull();
    expect(
      loadEnv({
        DATA_DIR: tmp(),
        TELEGRAM_BOT_TOKEN: TOKEN,
        TELEGRAM_WEBHOOK_SECRET: 'a-long-enough-secret',
        TELEGRAM_BOT_USERNAME: '@cometa_bot',
      }).telegram,
    ).toEqual({
      token: TOKEN,
      webhookSecret: 'a-long-enough-secret',
      apiBase: 'https://api.telegram.org',
      username: 'cometa_bot',
    });
    // A token alone sends messages; its webhook refuses every update (nothing proves the sender).
    expect(loadEnv({ DATA_DIR: tmp(), TELEGRAM_BOT_TOKEN: TOKEN }).telegram?.webhookSecret).toBe(
      null,
    );
    // A secret alone is no bot.
    expect(loadEnv({ DATA_DIR: tmp(), TELEGRAM_WEBHOOK_SECRET: 'x' }).telegram).toBeNull();
    expect(
      loadEnv({ DATA_DIR: tmp(), TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_WEBHOOK_SECRET: 's' }).telegram
        ?.webhookSecret,
    ).toBe('s');
    expect(() =>
      loadEnv({ DATA_DIR: tmp(), TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_WEBHOOK_SECRET: 'no spaces' }),
    ).toThrow(/TELEGRAM_WEBHOOK_SECRET must be 1 to 256 characters/);
    expect(() =>
      loadEnv({
        DATA_DIR: tmp(),
        TELEGRAM_BOT_TOKEN: '123:has a space',
        TELEGRAM_WEBHOOK_SECRET: 'a-long-enough-secret',
      }),
    ).toThrow(/TELEGRAM_BOT_TOKEN must look like/);
  });

  it('compares the webhook secret exactly', () => {
    const config = {
      token: TOKEN,
      webhookSecret: 'a-long-enough-secret',
      apiBase: 'http://127.0.0.1:9',
      username: null,
    };
    expect(webhookSecretMatches(config, 'a-long-enough-secret')).toBe(true);
    expect(webhookSecretMatches(config, 'a-long-enough-secreT')).toBe(false);
    expect(webhookSecretMatches(config, '')).toBe(false);
    expect(webhookSecretMatches(config, undefined)).toBe(false);
    expect(webhookSecretMatches({ ...config, webhookSecret: null }, '')).toBe(false);
    expect(webhookSecretMatches({ ...config, webhookSecret: null }, undefined)).toBe(false);
  });
});

describe('Telegram messages', () => {
  it('escapes HTML and keeps the first lines', () => {
    expect(escapeHtml('<b>"A" & B</b>')).toBe('&lt;b&gt;&quot;A&quot; &amp; B&lt;/b&gt;');
    expect(firstLines('uno\ndos\ntres\ncuatro\ncinco')).toBe('uno\ndos\ntres\ncuatro');
    expect(firstLines('x'.repeat(500), 4, 10)).toBe(`${'x'.repeat(9)}…`);
  });

  it('offers each role the kinds of its areas', () => {
    expect(availableKinds('customer')).toEqual([
      'order.completed',
      'order.rejected',
      'ticket.reply',
    ]);
    expect(availableKinds('support')).toEqual(['ticket.new', 'ticket.reply', 'order.review']);
    expect(availableKinds('finance')).toEqual(['payment.pending', 'credit.limit']);
    expect(availableKinds('admin')).toEqual([
      'ticket.new',
      'ticket.reply',
      'order.review',
      'supplier.failing',
      'payment.pending',
      'credit.limit',
      'stock.low',
    ]);
  });
});
