import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSupplierUrl, closeIdleConnections, isPublicAddress, postForm } from './http';
import { createSecretBox } from './secret-box';

describe('outbound address rule', () => {
  it('refuses loopback, private, link-local and reserved addresses, v4 and v6', () => {
    for (const address of [
      '127.0.0.1',
      '127.8.9.10',
      '10.0.0.7',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::a00:1',
      'localhost',
      'not an address',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('allows public addresses', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888', '::ffff:8.8.4.4']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it('takes only http(s) URLs without credentials', () => {
    expect(checkSupplierUrl('https://panel.example/api/index.php').ok).toBe(true);
    expect(checkSupplierUrl('ftp://panel.example').ok).toBe(false);
    expect(checkSupplierUrl('https://user:pass@panel.example').ok).toBe(false);
    expect(checkSupplierUrl('javascript:alert(1)').ok).toBe(false);
    expect(checkSupplierUrl('no url').ok).toBe(false);
  });
});

describe('postForm tells "never sent" from "may have arrived"', () => {
  let server: Server;
  let base: string;
  const received: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push(`${req.url} ${body}`);
        if (req.url === '/hang') return; // never answers
        if (req.url === '/drop') return req.socket.destroy();
        if (req.url === '/big') {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          return res.end(`"${'x'.repeat(4096)}"`);
        }
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ ok: true, got: body }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    closeIdleConnections();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const allowed = {
    connectTimeoutMs: 500,
    totalTimeoutMs: 700,
    maxBytes: 1024,
    allowPrivateNetwork: true,
  };

  it('posts a form and reads the answer', async () => {
    const result = await postForm(`${base}/ok`, { a: '1', b: 'ñ&=' }, allowed);
    expect(result).toMatchObject({ kind: 'response', status: 200 });
    if (result.kind === 'response')
      expect((JSON.parse(result.body) as { got: string }).got).toBe('a=1&b=%C3%B1%26%3D');
  });

  it('never connects to a private address without ALLOW_PRIVATE_NETWORK, by IP or by name', async () => {
    const before = received.length;
    const strict = { ...allowed, allowPrivateNetwork: false };
    for (const url of [`${base}/ok`, base.replace('127.0.0.1', 'localhost') + '/ok']) {
      const result = await postForm(url, {}, strict);
      expect(result.kind, url).toBe('not-sent');
      if (result.kind === 'not-sent') expect(result.error).toMatch(/not public/);
    }
    expect(received.length).toBe(before);
  });

  it('a refused connection was not sent', async () => {
    const result = await postForm('http://127.0.0.1:9/api', {}, allowed);
    expect(result.kind).toBe('not-sent');
  });

  it('a time-out, a dropped connection or an oversized answer after sending may have arrived', async () => {
    for (const path of ['/hang', '/drop', '/big']) {
      const result = await postForm(`${base}${path}`, { x: '1' }, allowed);
      expect(result.kind, path).toBe('failed-after-send');
    }
  });

  it('reuses connections for reads when asked (and still answers)', async () => {
    const a = await postForm(`${base}/ok`, { n: '1' }, { ...allowed, keepAlive: true });
    const b = await postForm(`${base}/ok`, { n: '2' }, { ...allowed, keepAlive: true });
    expect([a.kind, b.kind]).toEqual(['response', 'response']);
  });
});

describe('sealed supplier keys', () => {
  const box = createSecretBox('a-secret-of-at-least-thirty-two-characters!!');

  it('opens what it sealed, for the same supplier only', () => {
    const sealed = box.seal('K7Q-2WX-9PL', 'supplier:1');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('K7Q');
    expect(box.open(sealed, 'supplier:1')).toBe('K7Q-2WX-9PL');
    expect(box.open(sealed, 'supplier:2')).toBeNull();
    expect(box.seal('same', 'c')).not.toBe(box.seal('same', 'c')); // a fresh IV each time
  });

  it('refuses a tampered value or another AUTH_SECRET', () => {
    const sealed = box.seal('secret-key', 'supplier:1');
    const [v, iv, tag, data = ''] = sealed.split('.');
    const flipped = `${v}.${iv}.${tag}.${data.startsWith('A') ? 'B' : 'A'}${data.slice(1)}`;
    expect(box.open(flipped, 'supplier:1')).toBeNull();
    const other = createSecretBox('another-secret-of-at-least-thirty-two-chars');
    expect(other.open(sealed, 'supplier:1')).toBeNull();
    expect(box.open('garbage', 'supplier:1')).toBeNull();
  });
});
