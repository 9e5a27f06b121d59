// Outbound HTTP to suppliers (and customers' webhook endpoints): one POST, bounded in time and size, only to public addresses
// (unless ALLOW_PRIVATE_NETWORK), and telling apart "never sent" from "maybe received": the
// difference decides whether an order may be tried again (docs/protocols.md §4.1).
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

export type PostOptions = {
  /** Time to open the connection (and finish TLS). Past it, nothing was sent. */
  connectTimeoutMs: number;
  /** Time for the whole exchange. Past it after connecting, the outcome is unknown. */
  totalTimeoutMs: number;
  /** Largest answer read; a larger one is abandoned (outcome unknown). */
  maxBytes: number;
  allowPrivateNetwork: boolean;
  /**
   * Reuse connections (read-only calls). Calls that create something upstream use a fresh
   * connection: a kept-alive socket the server has just closed fails after our request was
   * written, which would look like a possible delivery.
   */
  keepAlive?: boolean;
  userAgent?: string;
};

export const DEFAULT_LIMITS = {
  connectTimeoutMs: 10_000,
  totalTimeoutMs: 60_000,
  maxBytes: 5 * 1024 * 1024,
} as const;

export type PostResult =
  | { kind: 'response'; status: number; contentType: string | null; body: string; ms: number }
  /** The request never left: bad URL, address not allowed, DNS failure, connection refused or timed out. */
  | { kind: 'not-sent'; error: string; ms: number }
  /** The request may have arrived: time-out or reset after connecting, an answer too large. */
  | { kind: 'failed-after-send'; error: string; ms: number };

const BLOCKED = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  BLOCKED.addSubnet(prefix, bits, 'ipv4');
}
for (const [prefix, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96], // NAT64: may reach private IPv4
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  BLOCKED.addSubnet(prefix, bits, 'ipv6');
}

/** True for an address on the public internet: not loopback, private, link-local or reserved. */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !BLOCKED.check(address, 'ipv4');
  if (family !== 6) return false;
  const lower = address.toLowerCase();
  // IPv4 embedded in IPv6 (::ffff:10.0.0.1, ::10.0.0.1): judge the IPv4 address.
  const mapped = /^(?:::ffff:|::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped?.[1]) return isPublicAddress(mapped[1]);
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (hexMapped?.[1] && hexMapped[2]) {
    const hi = parseInt(hexMapped[1], 16);
    const lo = parseInt(hexMapped[2], 16);
    return isPublicAddress(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  return !BLOCKED.check(address, 'ipv6');
}

/** The URL when it is an http(s) URL without credentials; otherwise a Spanish reason. */
export function checkSupplierUrl(
  raw: string,
): { ok: true; url: URL } | { ok: false; reason: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'La dirección no es una URL válida.' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, reason: 'La dirección debe empezar por http:// o https://.' };
  if (url.username || url.password)
    return { ok: false, reason: 'La dirección no puede llevar usuario ni contraseña.' };
  return { ok: true, url };
}

class AddressNotAllowed extends Error {
  constructor(host: string) {
    super(`address of ${host} is not public (private networks are not allowed for this call)`);
    this.name = 'AddressNotAllowed';
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/** dns.lookup that only hands out allowed addresses: the check applies to the address used. */
function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const usable = allowPrivate ? addresses : addresses.filter((a) => isPublicAddress(a.address));
      if (usable.length === 0) return callback(new AddressNotAllowed(hostname), []);
      if (options.all) return callback(null, usable);
      const first = usable[0];
      if (!first) return callback(new AddressNotAllowed(hostname), []);
      callback(null, first.address, first.family);
    });
  };
}

const agents = new Map<string, http.Agent>();

function keepAliveAgent(protocol: string, allowPrivate: boolean): http.Agent {
  const key = `${protocol}:${allowPrivate}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = {
      keepAlive: true,
      // Shorter than common server keep-alive time-outs (5 s), so we rarely reuse a socket the
      // server is closing.
      timeout: 4_000,
      maxSockets: 16,
      lookup: guardedLookup(allowPrivate) as unknown as typeof dns.lookup,
    };
    agent = protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    agents.set(key, agent);
  }
  return agent;
}

/** Closes the kept-alive connections (tests, shutdown). */
export function closeIdleConnections(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

/**
 * POSTs `fields` as application/x-www-form-urlencoded and reads the answer as text. Never
 * throws: every failure is a result saying whether the request may have arrived.
 */
export function postForm(
  rawUrl: string,
  fields: Record<string, string>,
  options: PostOptions,
): Promise<PostResult> {
  return post(
    rawUrl,
    new URLSearchParams(fields).toString(),
    {
      'Content-Type': 'application/x-www-form-urlencoded',
      Accept: 'application/json, text/plain;q=0.9, */*;q=0.5',
    },
    options,
  );
}

/** POSTs a JSON body as it is (its exact bytes may be signed) with extra headers. */
export function postJson(
  rawUrl: string,
  body: string,
  headers: Record<string, string>,
  options: PostOptions,
): Promise<PostResult> {
  return post(rawUrl, body, { 'Content-Type': 'application/json', ...headers }, options);
}

function post(
  rawUrl: string,
  body: string,
  headers: Record<string, string>,
  options: PostOptions,
): Promise<PostResult> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  const checked = checkSupplierUrl(rawUrl);
  if (!checked.ok) return Promise.resolve({ kind: 'not-sent', error: checked.reason, ms: 0 });
  const url = checked.url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host) && !options.allowPrivateNetwork && !isPublicAddress(host)) {
    return Promise.resolve({
      kind: 'not-sent',
      error: new AddressNotAllowed(host).message,
      ms: 0,
    });
  }
  const transport = url.protocol === 'https:' ? https : http;

  return new Promise<PostResult>((resolve) => {
    let settled = false;
    let connected = false;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(totalTimer);
      resolve(result);
    };
    const fail = (error: string) =>
      finish({ kind: connected ? 'failed-after-send' : 'not-sent', error, ms: ms() });

    const req = transport.request(url, {
      method: 'POST',
      headers: {
        ...headers,
        'Content-Length': Buffer.byteLength(body),
        'User-Agent': options.userAgent ?? 'Cometa',
      },
      ...(options.keepAlive
        ? { agent: keepAliveAgent(url.protocol, options.allowPrivateNetwork) }
        : {
            agent: false,
            lookup: guardedLookup(options.allowPrivateNetwork),
          }),
    });

    const totalTimer = setTimeout(() => {
      req.destroy(new Error(`no complete answer within ${options.totalTimeoutMs} ms`));
    }, options.totalTimeoutMs);
    const connectTimer = setTimeout(() => {
      if (!connected) req.destroy(new Error(`no connection within ${options.connectTimeoutMs} ms`));
    }, options.connectTimeoutMs);

    req.on('socket', (socket) => {
      const ready = () => {
        connected = true;
        clearTimeout(connectTimer);
      };
      // A reused keep-alive socket is already open; a new one says so once connected (for TLS,
      // once the handshake is done: nothing of the request can be read before).
      if (!socket.connecting) ready();
      else socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', ready);
    });
    req.on('error', (err) => fail(err.message));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxBytes) {
          res.destroy();
          req.destroy();
          fail(`answer larger than ${options.maxBytes} bytes`);
          return;
        }
        chunks.push(chunk);
      });
      res.on('error', (err) => fail(err.message));
      res.on('aborted', () => fail('answer cut short'));
      res.on('end', () => {
        if (!res.complete) return fail('answer cut short');
        let text = Buffer.concat(chunks).toString('utf8');
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
        finish({
          kind: 'response',
          status: res.statusCode ?? 0,
          contentType: res.headers['content-type'] ?? null,
          body: text,
          ms: ms(),
        });
      });
    });
    req.end(body);
  });
}
