// Talking to one supplier: its adapter over our outbound HTTP, with the key opened from its
// sealed form, a per-supplier limit of requests in flight, metrics, and the log of every
// exchange (keys redacted).
import type { Db, Tx } from '../../db/client';
import { supplierLog, type supplier } from '../../db/schema/suppliers';
import type { Env } from '../../env';
import type { Metrics } from '../../lib/metrics';
import { createAdapter, endpointUrl } from '../../suppliers/adapter';
import { DEFAULT_LIMITS, postForm } from '../../suppliers/http';
import { createSecretBox, type SecretBox } from '../../suppliers/secret-box';
import type {
  CallOutcome,
  ConnectedAdapter,
  Exchange,
  SupplierConnection,
  SupplierSettings,
  Transport,
} from '../../suppliers/types';

export type SupplierRow = typeof supplier.$inferSelect;

export const DEFAULT_CONCURRENCY = 4;

/** Longest response kept in the supplier log. */
const LOG_RESPONSE_MAX = 64 * 1024;

export type SupplierRuntime = { env: Env; metrics: Metrics };

const boxes = new Map<string, SecretBox>();

/** The sealer of supplier keys for this AUTH_SECRET. */
export function secretBox(env: Pick<Env, 'AUTH_SECRET'>): SecretBox {
  let box = boxes.get(env.AUTH_SECRET);
  if (!box) {
    box = createSecretBox(env.AUTH_SECRET);
    boxes.set(env.AUTH_SECRET, box);
  }
  return box;
}

/** The key is bound to its supplier: a sealed value copied onto another row does not open. */
export function keyContext(supplierId: string): string {
  return `supplier:${supplierId}`;
}

/** A small counting semaphore: at most `max` calls to one supplier at once, per instance. */
class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(public max: number) {}
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active += 1;
    try {
      return await fn();
    } finally {
      this.active -= 1;
      this.waiting.shift()?.();
    }
  }
}

const limiters = new Map<string, Limiter>();

function limiterFor(supplierId: string, max: number): Limiter {
  let limiter = limiters.get(supplierId);
  if (!limiter) {
    limiter = new Limiter(max);
    limiters.set(supplierId, limiter);
  }
  limiter.max = max;
  return limiter;
}

export function settingsOf(row: Pick<SupplierRow, 'settings'>): Required<SupplierSettings> {
  const s = row.settings;
  return {
    dhruParameters: s.dhruParameters ?? 'xml',
    dhruStatus2: s.dhruStatus2 ?? 'processing',
    dhruBulkStatus: s.dhruBulkStatus ?? true,
    maxConcurrency: s.maxConcurrency ?? DEFAULT_CONCURRENCY,
  };
}

/** The transport to one endpoint: limits, time-outs, address guard, metrics. */
function transportFor(
  runtime: SupplierRuntime,
  conn: SupplierConnection,
  label: string,
): Transport {
  const url = endpointUrl(conn.protocol, conn.url);
  const limiter = limiterFor(conn.id, settingsOf(conn).maxConcurrency);
  const env = runtime.env;
  return (action, fields, { keepAlive }) =>
    limiter.run(async () => {
      const result = await postForm(url, fields, {
        connectTimeoutMs: env.SUPPLIER_CONNECT_TIMEOUT_SECONDS * 1000,
        totalTimeoutMs: env.SUPPLIER_TIMEOUT_SECONDS * 1000,
        maxBytes: DEFAULT_LIMITS.maxBytes,
        allowPrivateNetwork: env.ALLOW_PRIVATE_NETWORK,
        keepAlive,
        userAgent: `${env.APP_NAME} (+${env.APP_URL})`,
      });
      const outcome =
        result.kind === 'response' ? (result.status >= 500 ? 'http-5xx' : 'answered') : result.kind;
      runtime.metrics.observeSupplier(label, action, outcome, result.ms / 1000);
      return result;
    });
}

/** The supplier's connection with its key opened; null when the key does not open. */
export function connectionOf(
  env: Pick<Env, 'AUTH_SECRET'>,
  row: Pick<SupplierRow, 'id' | 'protocol' | 'url' | 'username' | 'apiKeySealed' | 'settings'>,
): SupplierConnection | null {
  const apiKey = secretBox(env).open(row.apiKeySealed, keyContext(row.id));
  if (apiKey === null) return null;
  return {
    id: row.id,
    protocol: row.protocol === 'smm' ? 'smm' : 'dhru',
    url: row.url,
    username: row.username,
    apiKey,
    settings: settingsOf(row),
  };
}

export const KEY_UNREADABLE =
  'No se pudo descifrar la clave API guardada (¿cambió AUTH_SECRET?). Vuelve a escribirla.';

/** The adapter for a connection (a saved supplier, or one being tested before it is saved). */
export function adapterFor(
  runtime: SupplierRuntime,
  conn: SupplierConnection,
  label: string,
): ConnectedAdapter {
  return createAdapter(conn, transportFor(runtime, conn, label));
}

/** The adapter of a saved supplier, or the reason it cannot be used. */
export function adapterOfRow(
  runtime: SupplierRuntime,
  row: SupplierRow,
): { ok: true; adapter: ConnectedAdapter } | { ok: false; message: string } {
  const conn = connectionOf(runtime.env, row);
  if (!conn) return { ok: false, message: KEY_UNREADABLE };
  return { ok: true, adapter: adapterFor(runtime, conn, row.name) };
}

/** The outcome word the log keeps for a call. */
export function outcomeWord(outcome: CallOutcome<unknown>): string {
  return outcome.ok ? 'ok' : outcome.kind;
}

/** PostgreSQL refuses NUL in text and jsonb: a supplier's garbage must still be loggable. */
export function storable(text: string): string {
  return text.split(String.fromCharCode(0)).join('\uFFFD');
}

/** Writes one log row per exchange of a call (in `tx`, so it commits with what it caused). */
export async function logExchanges(
  db: Db | Tx,
  supplierId: string,
  orderIds: string[],
  outcome: CallOutcome<unknown>,
): Promise<void> {
  if (outcome.exchanges.length === 0) return;
  const word = outcomeWord(outcome);
  await db.insert(supplierLog).values(
    outcome.exchanges.map((e: Exchange) => ({
      supplierId,
      orderIds,
      action: e.action,
      request: Object.fromEntries(
        Object.entries(e.request).map(([k, v]) => [storable(k), storable(v)]),
      ),
      httpStatus: e.status,
      response: e.response === null ? null : storable(e.response.slice(0, LOG_RESPONSE_MAX)),
      error: e.error === null ? null : storable(e.error),
      outcome: word,
      ms: e.ms,
    })),
  );
}
