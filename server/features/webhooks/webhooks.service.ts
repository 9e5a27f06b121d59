// Signed webhooks: a customer's endpoints receive a POST for every status change of their
// orders. The delivery row is written in the transaction of the change (with its job), signed
// with the endpoint's secret, retried with a doubling wait for up to 3 days, every attempt
// logged; an endpoint whose delivery is given up is disabled and its owner e-mailed.
// Destinations are public addresses only (WEBHOOK_ALLOW_PRIVATE_NETWORK, not the suppliers'
// ALLOW_PRIVATE_NETWORK, opens the private network), checked when added and on the address each
// try connects to; the customer sees each try's status and a short reason, never the answer.
import { createHmac, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  WEBHOOK_ENDPOINTS_MAX,
  type CreatedWebhookEndpoint,
  type CreateWebhookEndpointInput,
  type WebhookDeliveryDto,
  type WebhookEndpointDto,
} from '../../../shared/schemas/api-keys';
import type { Db, Tx } from '../../db/client';
import { user } from '../../db/schema/auth';
import { webhookAttempt, webhookDelivery, webhookEndpoint } from '../../db/schema/reseller';
import type { Env } from '../../env';
import { sendInTx, type JobQueue } from '../../jobs/queue';
import { emailLayout } from '../../lib/email-templates';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import type { Mailer } from '../../lib/mail';
import { mailAfterCommit } from '../../lib/notify';
import { checkSupplierUrl, isPublicAddress, postJson } from '../../suppliers/http';
import { secretBox } from '../suppliers/connection';
import { deliveryReason, reasonOf } from './delivery-reason';
import { GIVE_UP_AFTER_SECONDS } from './enqueue';

export type WebhookDeps = {
  db: Db;
  env: Env;
  jobs: JobQueue;
  mailer: Mailer;
  logger: Logger;
};

export const SIGNATURE_HEADER = 'Cometa-Signature';
/** The longest wait between two tries. */
const MAX_WAIT_SECONDS = 6 * 3600;
const TIMEOUT_MS = 10_000;

const STATE_LABELS = { active: 'Activo', disabled: 'Desactivado' } as const;
const DELIVERY_LABELS = {
  pending: 'Pendiente',
  delivered: 'Entregado',
  failed: 'Fallido',
} as const;

type EndpointRow = typeof webhookEndpoint.$inferSelect;

function secretContext(endpointId: string): string {
  return `webhook:${endpointId}`;
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`. */
export function signatureHeader(secret: string, body: string, t: number): string {
  const mac = createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest('hex');
  return `t=${t},v1=${mac}`;
}

/** The wait before try `attempt + 1`: base × 2^(attempt − 1), at most 6 hours. */
export function retryWaitSeconds(base: number, attempt: number): number {
  return Math.min(base * 2 ** Math.max(attempt - 1, 0), MAX_WAIT_SECONDS);
}

function toEndpointDto(row: EndpointRow): WebhookEndpointDto {
  const state = row.state === 'disabled' ? 'disabled' : 'active';
  return {
    id: row.id,
    url: row.url,
    state,
    stateLabel: STATE_LABELS[state],
    failures: row.failures,
    disabledReason: row.disabledReason,
    createdAt: row.createdAt.toISOString(),
  };
}

async function ownEndpoint(db: Db | Tx, userId: string, id: string): Promise<EndpointRow> {
  const [row] = await db
    .select()
    .from(webhookEndpoint)
    .where(
      and(
        eq(webhookEndpoint.id, id),
        eq(webhookEndpoint.userId, userId),
        isNull(webhookEndpoint.deletedAt),
      ),
    );
  // Another customer's endpoint answers like one that does not exist.
  if (!row) throw new AppError('NOT_FOUND', 'El destino de avisos no existe.');
  return row;
}

/**
 * A host that is plainly not on the public internet: a private or reserved IP literal (the URL
 * parser has already turned `0x7f000001` or `2130706433` into `127.0.0.1`) or a local name. Any
 * other name is checked on the address it resolves to, at every try.
 */
export function isPlainlyPrivateHost(hostname: string): boolean {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (isIP(host)) return !isPublicAddress(host);
  return host === 'localhost' || host.endsWith('.localhost');
}

/** POST /api/webhook-endpoints: the signing secret is returned once. */
export async function createEndpoint(
  deps: Pick<WebhookDeps, 'db' | 'env'>,
  userId: string,
  input: CreateWebhookEndpointInput,
): Promise<CreatedWebhookEndpoint> {
  const checked = checkSupplierUrl(input.url);
  if (!checked.ok) throw new AppError('VALIDATION_FAILED', undefined, { url: checked.reason });
  if (!deps.env.WEBHOOK_ALLOW_PRIVATE_NETWORK && isPlainlyPrivateHost(checked.url.hostname)) {
    throw new AppError('VALIDATION_FAILED', undefined, {
      url: 'La dirección debe ser pública: no se envían avisos a direcciones locales o privadas.',
    });
  }
  const [{ n } = { n: 0 }] = await deps.db
    .select({ n: sql<number>`count(*)::int` })
    .from(webhookEndpoint)
    .where(and(eq(webhookEndpoint.userId, userId), isNull(webhookEndpoint.deletedAt)));
  if (n >= WEBHOOK_ENDPOINTS_MAX) {
    throw new AppError(
      'CONFLICT',
      `Ya tienes ${WEBHOOK_ENDPOINTS_MAX} destinos de avisos: borra alguno antes de añadir otro.`,
    );
  }
  const id = crypto.randomUUID();
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  const [row] = await deps.db
    .insert(webhookEndpoint)
    .values({
      id,
      userId,
      url: input.url,
      secretSealed: secretBox(deps.env).seal(secret, secretContext(id)),
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return { ...toEndpointDto(row), secret };
}

export async function listEndpoints(db: Db, userId: string): Promise<WebhookEndpointDto[]> {
  const rows = await db
    .select()
    .from(webhookEndpoint)
    .where(and(eq(webhookEndpoint.userId, userId), isNull(webhookEndpoint.deletedAt)))
    .orderBy(webhookEndpoint.createdAt);
  return rows.map(toEndpointDto);
}

/** DELETE /api/webhook-endpoints/:id: no more deliveries (pending ones are dropped). */
export async function deleteEndpoint(db: Db, userId: string, id: string): Promise<void> {
  await ownEndpoint(db, userId, id);
  await db.transaction(async (tx) => {
    await tx
      .update(webhookEndpoint)
      .set({ deletedAt: new Date(), state: 'disabled' })
      .where(eq(webhookEndpoint.id, id));
    await tx
      .update(webhookDelivery)
      .set({ state: 'failed', lastError: 'El destino se borró.' })
      .where(and(eq(webhookDelivery.endpointId, id), eq(webhookDelivery.state, 'pending')));
  });
}

/** POST /api/webhook-endpoints/:id/enable: a disabled endpoint receives again. */
export async function enableEndpoint(
  db: Db,
  userId: string,
  id: string,
): Promise<WebhookEndpointDto> {
  await ownEndpoint(db, userId, id);
  const [row] = await db
    .update(webhookEndpoint)
    .set({ state: 'active', failures: 0, disabledAt: null, disabledReason: null })
    .where(eq(webhookEndpoint.id, id))
    .returning();
  if (!row) throw new AppError('NOT_FOUND', 'El destino de avisos no existe.');
  return toEndpointDto(row);
}

/** GET /api/webhook-endpoints/:id/deliveries: the latest 50, newest first, with their tries. */
export async function listDeliveries(
  db: Db,
  userId: string,
  endpointId: string,
): Promise<WebhookDeliveryDto[]> {
  await ownEndpoint(db, userId, endpointId);
  const rows = await db
    .select()
    .from(webhookDelivery)
    .where(eq(webhookDelivery.endpointId, endpointId))
    .orderBy(desc(webhookDelivery.createdAt), desc(webhookDelivery.id))
    .limit(50);
  const attempts = rows.length
    ? await db
        .select()
        .from(webhookAttempt)
        .where(
          inArray(
            webhookAttempt.deliveryId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(desc(webhookAttempt.id))
    : [];
  return rows.map((r) => {
    const state = r.state === 'delivered' || r.state === 'failed' ? r.state : 'pending';
    return {
      id: r.id,
      eventId: r.eventId,
      type: r.type,
      orderId: r.orderId,
      state,
      stateLabel: DELIVERY_LABELS[state],
      attempts: r.attempts,
      nextAttemptAt: state === 'pending' ? r.nextAttemptAt.toISOString() : null,
      deliveredAt: r.deliveredAt?.toISOString() ?? null,
      createdAt: r.createdAt.toISOString(),
      body: r.body,
      lastAttempts: attempts
        .filter((a) => a.deliveryId === r.id)
        .slice(0, 10)
        .map((a) => ({
          at: a.createdAt.toISOString(),
          httpStatus: a.httpStatus,
          // Rows written before reasons were fixed phrases may hold raw text: mapped again.
          reason: deliveryReason(a.httpStatus, a.error),
          ms: a.ms,
        })),
    };
  });
}

/** POST …/deliveries/:deliveryId/resend: the same event (same id and body) is sent again. */
export async function resendDelivery(
  deps: Pick<WebhookDeps, 'db' | 'jobs'>,
  userId: string,
  endpointId: string,
  deliveryId: string,
): Promise<void> {
  const endpoint = await ownEndpoint(deps.db, userId, endpointId);
  if (endpoint.state !== 'active')
    throw new AppError('CONFLICT', 'Activa el destino antes de reenviar avisos.');
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(webhookDelivery)
      .set({
        state: 'pending',
        nextAttemptAt: new Date(),
        retryUntil: sql`now() + make_interval(secs => ${GIVE_UP_AFTER_SECONDS})`,
      })
      .where(and(eq(webhookDelivery.id, deliveryId), eq(webhookDelivery.endpointId, endpointId)))
      .returning({ id: webhookDelivery.id });
    if (!row) throw new AppError('NOT_FOUND', 'El aviso no existe.');
    await sendInTx(tx, 'webhook-deliver', { deliveryId });
  });
  deps.jobs.wake('webhook-deliver');
}

/** The type of the event «Probar» sends: tried once, never counted against the endpoint. */
export const TEST_EVENT_TYPE = 'webhook.test';

/**
 * POST /api/webhook-endpoints/:id/test: a signed test event, queued like any other (the web
 * request never calls the customer's server); the customer reads its result in the deliveries.
 */
export async function testEndpoint(
  deps: Pick<WebhookDeps, 'db' | 'jobs'>,
  userId: string,
  endpointId: string,
): Promise<WebhookDeliveryDto> {
  const endpoint = await ownEndpoint(deps.db, userId, endpointId);
  if (endpoint.state !== 'active')
    throw new AppError('CONFLICT', 'Activa el destino antes de probarlo.');
  const eventId = `evt_${crypto.randomUUID()}`;
  const body = JSON.stringify({
    id: eventId,
    type: TEST_EVENT_TYPE,
    createdAt: new Date().toISOString(),
    data: { message: 'Aviso de prueba: si lo recibes y la firma es válida, todo está listo.' },
  });
  const id = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(webhookDelivery)
      // One try: a test is not retried (retryUntil is now).
      .values({ endpointId, eventId, type: TEST_EVENT_TYPE, body, retryUntil: new Date() })
      .returning({ id: webhookDelivery.id });
    if (!row) throw new Error('insert returned no row');
    await sendInTx(tx, 'webhook-deliver', { deliveryId: row.id });
    return row.id;
  });
  deps.jobs.wake('webhook-deliver');
  const [queued] = (await listDeliveries(deps.db, userId, endpointId)).filter((d) => d.id === id);
  if (!queued) throw new Error('queued test delivery not found');
  return queued;
}

function notifyDisabled(deps: WebhookDeps, endpoint: EndpointRow, reason: string): void {
  mailAfterCommit(deps, 'webhook endpoint disabled', { endpointId: endpoint.id }, async () => {
    const [owner] = await deps.db
      .select({ email: user.email, name: user.name })
      .from(user)
      .where(eq(user.id, endpoint.userId));
    if (!owner) return null;
    const body = emailLayout(
      deps.env.APP_NAME,
      'Desactivamos un destino de avisos',
      [
        `Hola, ${owner.name}:`,
        `Tu destino de avisos ${endpoint.url} dejó de recibir nuestros avisos durante 3 días y lo desactivamos.`,
        `Último error: ${reason}`,
        'Cuando lo arregles, actívalo de nuevo en Mi perfil y reenvía los avisos que necesites.',
      ],
      { label: 'Ir a Mi perfil', url: `${deps.env.APP_URL}/profile` },
    );
    return { to: owner.email, subject: 'Tu destino de avisos está desactivado', ...body };
  });
}

export type DeliveryResult = 'delivered' | 'retry' | 'failed' | 'nothing-to-do';

/** One try of one delivery (a `webhook-deliver` job). */
export async function deliver(deps: WebhookDeps, deliveryId: string): Promise<DeliveryResult> {
  const [found] = await deps.db
    .select({ d: webhookDelivery, e: webhookEndpoint })
    .from(webhookDelivery)
    .innerJoin(webhookEndpoint, eq(webhookEndpoint.id, webhookDelivery.endpointId))
    .where(eq(webhookDelivery.id, deliveryId));
  if (!found || found.d.state !== 'pending') return 'nothing-to-do';
  const { d, e } = found;
  if (d.nextAttemptAt.getTime() > Date.now() + 1000) return 'nothing-to-do';
  if (e.state !== 'active' || e.deletedAt) {
    await deps.db
      .update(webhookDelivery)
      .set({ state: 'failed', lastError: 'El destino está desactivado.' })
      .where(and(eq(webhookDelivery.id, d.id), eq(webhookDelivery.state, 'pending')));
    return 'failed';
  }
  const secret = secretBox(deps.env).open(e.secretSealed, secretContext(e.id));
  if (secret === null)
    throw new Error(`webhook secret of ${e.id} does not open (AUTH_SECRET changed?)`);
  const t = Math.floor(Date.now() / 1000);
  const result = await postJson(
    e.url,
    d.body,
    { [SIGNATURE_HEADER]: signatureHeader(secret, d.body, t), 'Cometa-Event-Id': d.eventId },
    {
      connectTimeoutMs: TIMEOUT_MS,
      totalTimeoutMs: TIMEOUT_MS,
      maxBytes: 64 * 1024,
      allowPrivateNetwork: deps.env.WEBHOOK_ALLOW_PRIVATE_NETWORK,
      userAgent: `${deps.env.APP_NAME}-Webhooks`,
    },
  );
  const ok = result.kind === 'response' && result.status >= 200 && result.status < 300;
  // What the customer may see (attempt, endpoint, e-mail); the raw error is for the log only.
  const error = reasonOf(result);
  if (result.kind !== 'response') {
    deps.logger.info(
      { deliveryId: d.id, endpointId: e.id, outcome: result.kind, error: result.error },
      'webhook try failed',
    );
  }
  const attempts = d.attempts + 1;
  if (d.type === TEST_EVENT_TYPE) {
    // A test is tried once, and says nothing about the endpoint's health.
    await deps.db.transaction(async (tx) => {
      await tx.insert(webhookAttempt).values({
        deliveryId: d.id,
        httpStatus: result.kind === 'response' ? result.status : null,
        error,
        response: null,
        ms: result.ms,
      });
      await tx
        .update(webhookDelivery)
        .set({
          state: ok ? 'delivered' : 'failed',
          attempts,
          deliveredAt: ok ? new Date() : null,
          lastStatus: result.kind === 'response' ? result.status : null,
          lastError: error,
        })
        .where(eq(webhookDelivery.id, d.id));
    });
    return ok ? 'delivered' : 'failed';
  }
  const wait = retryWaitSeconds(deps.env.WEBHOOK_RETRY_BASE_SECONDS, attempts);
  // The next try would fall after the window: give up now.
  const givenUp = !ok && Date.now() + wait * 1000 > d.retryUntil.getTime();
  let disabled = false;
  await deps.db.transaction(async (tx) => {
    await tx.insert(webhookAttempt).values({
      deliveryId: d.id,
      httpStatus: result.kind === 'response' ? result.status : null,
      error,
      // The answer's body is not kept: it is the receiver's business, and could be anything.
      response: null,
      ms: result.ms,
    });
    if (ok) {
      await tx
        .update(webhookDelivery)
        .set({
          state: 'delivered',
          attempts,
          deliveredAt: new Date(),
          lastStatus: result.status,
          lastError: null,
        })
        .where(eq(webhookDelivery.id, d.id));
      await tx.update(webhookEndpoint).set({ failures: 0 }).where(eq(webhookEndpoint.id, e.id));
      return;
    }
    await tx
      .update(webhookEndpoint)
      .set({ failures: sql`${webhookEndpoint.failures} + 1` })
      .where(eq(webhookEndpoint.id, e.id));
    if (givenUp) {
      await tx
        .update(webhookDelivery)
        .set({
          state: 'failed',
          attempts,
          lastStatus: result.kind === 'response' ? result.status : null,
          lastError: error,
        })
        .where(eq(webhookDelivery.id, d.id));
      const [off] = await tx
        .update(webhookEndpoint)
        .set({
          state: 'disabled',
          disabledAt: new Date(),
          disabledReason: `Sin respuesta correcta durante 3 días (${error ?? 'error'}).`,
        })
        .where(and(eq(webhookEndpoint.id, e.id), eq(webhookEndpoint.state, 'active')))
        .returning({ id: webhookEndpoint.id });
      disabled = off !== undefined;
      return;
    }
    await tx
      .update(webhookDelivery)
      .set({
        attempts,
        lastStatus: result.kind === 'response' ? result.status : null,
        lastError: error,
        nextAttemptAt: sql`now() + make_interval(secs => ${wait})`,
      })
      .where(eq(webhookDelivery.id, d.id));
    await sendInTx(tx, 'webhook-deliver', { deliveryId: d.id }, { startAfterSeconds: wait });
  });
  if (disabled) notifyDisabled(deps, e, error ?? 'error');
  return ok ? 'delivered' : givenUp ? 'failed' : 'retry';
}
