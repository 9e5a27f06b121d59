// A body over a route's limit answers a 413 the client can read (issue 19): the real app on a
// loopback socket, and clients that send slowly and read only once they have sent everything,
// as a browser uploading a file does. Before, the server answered and closed while the client
// was still sending: the connection was reset and the client read nothing ("other side closed",
// a network error in the browser instead of the Spanish message).
import net from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECEIPT_TOO_LARGE_MESSAGE } from '../../shared/schemas/funds';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../tests/setup/test-app';
import { errorHandler } from './error-handler';
import type { AppEnv } from './http';
import { discardBytesFor, DEFAULT_BODY_LIMIT, limitBody } from './route';

type Exchange = {
  /** The status line and headers read, lower-cased names. */
  status: number | null;
  headers: Record<string, string>;
  body: string;
  /** Bytes of body the client managed to write. */
  sent: number;
  /** Socket errors met while sending or reading (EPIPE, ECONNRESET). */
  errors: string[];
  /** The server closed the connection. */
  closed: boolean;
};

type Sending = {
  port: number;
  path: string;
  headers: Record<string, string>;
  total: number;
  chunk: number;
  gapMs: number;
  chunked: boolean;
  /** Read the answer as it comes (true) or only after the whole body is sent (a browser). */
  readWhileSending: boolean;
};

/** One request over a raw socket, its body written `chunk` bytes every `gapMs`. */
function exchange(o: Sending): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = net.connect(o.port, '127.0.0.1');
    if (!o.readWhileSending) socket.pause();
    const chunks: Buffer[] = [];
    const errors: string[] = [];
    let sent = 0;
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', (e) => errors.push(e.message));
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const head = split >= 0 ? text.slice(0, split).split('\r\n') : [];
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head[0] ?? '')?.[1];
      const headers: Record<string, string> = {};
      for (const line of head.slice(1)) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({
        status: status ? Number(status) : null,
        headers,
        body: split >= 0 ? text.slice(split + 4) : '',
        sent,
        errors,
        closed: true,
      });
    });
    const lines = [
      `POST ${o.path} HTTP/1.1`,
      'Host: 127.0.0.1',
      ...Object.entries(o.headers).map(([k, v]) => `${k}: ${v}`),
      o.chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${o.total}`,
    ];
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    const piece = Buffer.alloc(o.chunk, 0x20);
    function step() {
      if (socket.destroyed || !socket.writable) return;
      if (sent >= o.total) {
        if (o.chunked) socket.write('0\r\n\r\n');
        socket.resume();
        return;
      }
      const size = Math.min(o.chunk, o.total - sent);
      const data = size === o.chunk ? piece : piece.subarray(0, size);
      sent += size;
      if (o.chunked) socket.write(`${size.toString(16)}\r\n`);
      socket.write(data);
      if (o.chunked) socket.write('\r\n');
      setTimeout(step, o.gapMs);
    }
    step();
  });
}

function listen(fetch: (request: Request) => Response | Promise<Response>): Promise<ServerType> {
  return new Promise((resolve) => {
    const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(server));
  });
}

function portOf(server: ServerType): number {
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function close(server: ServerType): Promise<void> {
  return new Promise((resolve) => {
    if ('closeAllConnections' in server) server.closeAllConnections();
    server.close(() => resolve());
  });
}

describe('413 answers a client can read (the real app on loopback)', () => {
  let t: TestApp;
  let server: ServerType;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp('pglite');
    server = await listen(t.app.fetch);
    port = portOf(server);
  });
  afterAll(async () => {
    await close(server);
    await t.close();
  });

  const json = { Origin: TEST_ORIGIN, 'Content-Type': 'application/json' };

  for (const chunked of [false, true]) {
    const kind = chunked ? 'chunked' : 'declared';
    it(`regression: a ${kind} 1 MB body sent slowly to a 32 KB route, read only once sent, gets the 413 JSON and Connection: close`, async () => {
      const res = await exchange({
        port,
        path: '/api/contact',
        headers: json,
        total: 1024 * 1024,
        chunk: 16 * 1024,
        // ~1.3 s of sending: longer than the half second the HTTP layer drains on its own.
        gapMs: 20,
        chunked,
        readWhileSending: false,
      });
      expect(res.errors).toEqual([]);
      expect(res.sent).toBe(1024 * 1024);
      expect(res.status).toBe(413);
      expect(res.headers.connection).toBe('close');
      expect(JSON.parse(res.body)).toEqual({
        code: 'PAYLOAD_TOO_LARGE',
        message: `El contenido enviado es demasiado grande (máximo ${DEFAULT_BODY_LIMIT / 1024} KB).`,
      });
    });
  }

  it('a receipt over the 6 MB limit (a browser form upload) gets the receipt message', async () => {
    const form = new FormData();
    form.set('methodId', 'x');
    form.set('amount', '10.00');
    form.set('reference', 'TRX-1');
    form.set(
      'receipt',
      new Blob([new Uint8Array(7 * 1024 * 1024)], { type: 'image/png' }),
      'a.png',
    );
    const res = await fetch(`http://127.0.0.1:${port}/api/funds/requests`, {
      method: 'POST',
      headers: { Origin: TEST_ORIGIN },
      body: form,
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('connection')).toBe('close');
    expect(await res.json()).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: RECEIPT_TOO_LARGE_MESSAGE,
    });
  });

  it('a 7 MB multipart body read only once sent gets the receipt message too', async () => {
    const res = await exchange({
      port,
      path: '/api/funds/requests',
      headers: { Origin: TEST_ORIGIN, 'Content-Type': 'multipart/form-data; boundary=x' },
      total: 7 * 1024 * 1024,
      chunk: 256 * 1024,
      gapMs: 40,
      chunked: false,
      readWhileSending: false,
    });
    expect(res.errors).toEqual([]);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ message: RECEIPT_TOO_LARGE_MESSAGE });
  });

  it('a declared length beyond what is thrown away is answered at once, and the connection closed', async () => {
    const started = Date.now();
    const res = await exchange({
      port,
      path: '/api/contact',
      headers: json,
      total: DEFAULT_BODY_LIMIT + discardBytesFor(DEFAULT_BODY_LIMIT) + 1024 * 1024,
      chunk: 64 * 1024,
      gapMs: 50,
      chunked: false,
      readWhileSending: true,
    });
    expect(res.status).toBe(413);
    expect(res.headers.connection).toBe('close');
    expect(JSON.parse(res.body)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    // Closed long before the client could have sent it all (~4 s at this pace).
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('a chunked body is read at most to the bound, then answered and closed', async () => {
    const limit = DEFAULT_BODY_LIMIT + discardBytesFor(DEFAULT_BODY_LIMIT);
    const res = await exchange({
      port,
      path: '/api/contact',
      headers: json,
      total: 64 * 1024 * 1024,
      chunk: 256 * 1024,
      gapMs: 5,
      chunked: true,
      readWhileSending: true,
    });
    // A client still sending past the bound may lose the answer: the server closes the
    // connection, and what arrives after that resets it (the kernel then drops unread data).
    // When it was read, it is the 413 with Connection: close.
    if (res.status !== null) {
      expect(res.status).toBe(413);
      expect(res.headers.connection).toBe('close');
    }
    expect(res.closed).toBe(true);
    // The server stopped reading soon after the bound (kernel buffers let a few MB more through).
    expect(res.sent).toBeLessThan(limit + 16 * 1024 * 1024);
  });

  it('a body within the limit still goes through, and the connection stays open', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/contact`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        name: 'Ana',
        email: 'ana@example.com',
        subject: 'Hola',
        message: 'Una pregunta sobre los servicios.',
      }),
    });
    expect(res.status).not.toBe(413);
    expect(res.headers.get('connection')).not.toBe('close');
  });
});

describe('limitBody time bound', () => {
  it('a client too slow to finish within the bound gets the 413 when the time is up', async () => {
    const app = new Hono<AppEnv>();
    app.post('/x', limitBody(1024, undefined, { discardMs: 800 }), (c) => c.json({ ok: true }));
    app.onError(errorHandler);
    const server = await listen(app.fetch);
    try {
      const started = Date.now();
      const res = await exchange({
        port: portOf(server),
        path: '/x',
        headers: { 'Content-Type': 'application/json' },
        total: 1024 * 1024,
        chunk: 1024,
        gapMs: 50,
        chunked: false,
        readWhileSending: true,
      });
      expect(res.status).toBe(413);
      expect(res.headers.connection).toBe('close');
      const seconds = (Date.now() - started) / 1000;
      expect(seconds).toBeGreaterThan(0.7);
      expect(seconds).toBeLessThan(5);
    } finally {
      await close(server);
    }
  });
});
