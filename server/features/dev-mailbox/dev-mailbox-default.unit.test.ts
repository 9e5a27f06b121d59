import { describe, expect, it } from 'vitest';
import { isLocalHttpUrl, withDevMailboxDefault } from '../../../scripts/dev-mailbox.mjs';

describe('npm start and the local mailbox (scripts/dev-mailbox.mjs)', () => {
  it('turns it on for an app on this machine over http', () => {
    for (const url of [
      undefined,
      '',
      'http://localhost:3000',
      'http://127.0.0.1:8080/',
      'http://[::1]:3000',
    ])
      expect(withDevMailboxDefault({ APP_URL: url }).DEV_MAILBOX, String(url)).toBe('true');
  });

  it('leaves it off for https or another host, and never overrides the user', () => {
    for (const url of [
      'https://localhost:3000',
      'https://cometa.example.com',
      'http://cometa.example.com',
      'http://192.168.1.20:3000',
      'http://localhost.example.com',
      'no es una url',
    ])
      expect(isLocalHttpUrl(url), url).toBe(false);
    expect(withDevMailboxDefault({ APP_URL: 'https://cometa.example.com' }).DEV_MAILBOX).toBe(
      undefined,
    );
    expect(withDevMailboxDefault({ DEV_MAILBOX: 'false' }).DEV_MAILBOX).toBe('false');
  });
});
