import { formatAmount } from '../../../shared/money';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Db } from '../../db/client';
import type { Env } from '../../env';
import type { Auth } from '../../lib/auth';
import { AppError } from '../../lib/errors';
import { fieldErrors } from '../../../shared/schemas/auth';
import { readJson, requireAdmin, requireVerifiedUser, type AppEnv } from '../../lib/http';
import type { Logger } from '../../lib/logger';
import type { Mailer } from '../../lib/mail';
import {
  AdminRequestStatusSchema,
  CreateMethodSchema,
  ManualRequestSchema,
  MAX_RECEIPT_BYTES,
  MAX_REQUEST_BODY_BYTES,
  RECEIPT_TOO_LARGE_MESSAGE,
  RejectSchema,
  UpdateMethodSchema,
  type ManualRequestInput,
} from '../../../shared/schemas/funds';
import {
  approve,
  createMethod,
  createRequest,
  listMethods,
  listRequests,
  listRequestsByStatus,
  receiptFile,
  reject,
  toPublicMethodDto,
  updateMethod,
  type ReceiptFile,
  type ReviewNotifier,
} from './funds.service';
import type { ReceiptUpload } from './receipts';

export type FundsDeps = { db: Db; auth: Auth; env: Env; mailer: Mailer; logger: Logger };

function tooLarge(c: Context) {
  return c.json({ code: 'PAYLOAD_TOO_LARGE', message: RECEIPT_TOO_LARGE_MESSAGE }, 413);
}

/** Refuses a declared body over 6 MB before anything is read; a body without length is counted. */
const requestBodyLimit = bodyLimit({ maxSize: MAX_REQUEST_BODY_BYTES, onError: tooLarge });

function formText(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** JSON `{ methodId, amount, reference }`, or a form with the same fields and an optional file `receipt`. */
async function readRequestBody(
  c: Context<AppEnv>,
): Promise<{ input: ManualRequestInput; receipt: ReceiptUpload | null }> {
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  if (type.startsWith('application/json')) {
    return { input: await readJson(c, ManualRequestSchema), receipt: null };
  }
  if (
    !type.startsWith('multipart/form-data') &&
    !type.startsWith('application/x-www-form-urlencoded')
  ) {
    throw new AppError('BAD_REQUEST', 'Envía los datos como JSON o como formulario.');
  }
  let form: Record<string, string | File>;
  try {
    form = await c.req.parseBody();
  } catch {
    throw new AppError('BAD_REQUEST', 'El formulario enviado no es válido.');
  }
  const parsed = ManualRequestSchema.safeParse({
    methodId: formText(form.methodId),
    amount: formText(form.amount),
    reference: formText(form.reference),
  });
  if (!parsed.success)
    throw new AppError('VALIDATION_FAILED', undefined, fieldErrors(parsed.error));
  const file = form.receipt;
  if (file === undefined || file === '') return { input: parsed.data, receipt: null };
  if (typeof file === 'string') {
    throw new AppError('VALIDATION_FAILED', undefined, {
      receipt: 'Adjunta el comprobante como archivo.',
    });
  }
  // A form sent without choosing a file still carries an empty file part.
  if (file.size === 0) return { input: parsed.data, receipt: null };
  if (file.size > MAX_RECEIPT_BYTES)
    throw new AppError('PAYLOAD_TOO_LARGE', RECEIPT_TOO_LARGE_MESSAGE);
  return {
    input: parsed.data,
    receipt: { bytes: new Uint8Array(await file.arrayBuffer()), mime: file.type },
  };
}

function sendReceipt(c: Context<AppEnv>, file: ReceiptFile) {
  return c.body(file.stream, 200, {
    'Content-Type': file.mime,
    'Content-Length': String(file.size),
    'Content-Disposition': `inline; filename="${file.fileName}"`,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'private, no-store',
  });
}

function notifier(deps: FundsDeps): ReviewNotifier {
  return {
    mailer: deps.mailer,
    logger: deps.logger,
    appName: deps.env.APP_NAME,
    appUrl: deps.env.APP_URL,
  };
}

/** /api/funds: the customer's side of manual top-ups. */
export function fundsRoutes(deps: FundsDeps) {
  return new Hono<AppEnv>()
    .get('/methods', async (c) => {
      await requireVerifiedUser(deps.auth, c);
      const methods = await listMethods(deps.db, { activeOnly: true });
      const card = deps.env.stripe;
      return c.json({
        card: card
          ? { minAmount: formatAmount(card.minAmount), maxAmount: formatAmount(card.maxAmount) }
          : null,
        manual: methods.map(toPublicMethodDto),
        voucher: true,
      });
    })
    .post('/requests', requestBodyLimit, async (c) => {
      const u = await requireVerifiedUser(deps.auth, c);
      const { input, receipt } = await readRequestBody(c);
      const created = await createRequest(deps.db, u.id, input, receipt, deps.env.DATA_DIR);
      c.get('logger').info(
        { paymentId: created.id, amount: created.amount },
        'manual top-up requested',
      );
      return c.json(created, 201);
    })
    .get('/requests', async (c) => {
      const u = await requireVerifiedUser(deps.auth, c);
      return c.json({ items: await listRequests(deps.db, u.id) });
    })
    .get('/requests/:id/receipt', async (c) => {
      const u = await requireVerifiedUser(deps.auth, c);
      const file = await receiptFile(deps.db, u, c.req.param('id'), deps.env.DATA_DIR);
      return sendReceipt(c, file);
    });
}

/** /api/admin/funds: methods and the review queue. Every route checks the admin role first. */
export function fundsAdminRoutes(deps: FundsDeps) {
  return new Hono<AppEnv>()
    .get('/requests', async (c) => {
      await requireAdmin(deps.auth, c);
      const parsed = AdminRequestStatusSchema.safeParse(c.req.query('status') ?? 'pending');
      if (!parsed.success) {
        throw new AppError('VALIDATION_FAILED', undefined, {
          status: parsed.error.issues[0]?.message ?? 'Estado no válido.',
        });
      }
      return c.json({ items: await listRequestsByStatus(deps.db, parsed.data) });
    })
    .post('/requests/:id/approve', async (c) => {
      const admin = await requireAdmin(deps.auth, c);
      const result = await approve(
        deps.db,
        admin.id,
        c.req.param('id'),
        c.get('clientIp'),
        notifier(deps),
      );
      return c.json(result);
    })
    .post('/requests/:id/reject', async (c) => {
      const admin = await requireAdmin(deps.auth, c);
      const { reason } = await readJson(c, RejectSchema);
      const result = await reject(
        deps.db,
        admin.id,
        c.req.param('id'),
        reason,
        c.get('clientIp'),
        notifier(deps),
      );
      return c.json(result);
    })
    .get('/requests/:id/receipt', async (c) => {
      const admin = await requireAdmin(deps.auth, c);
      const file = await receiptFile(deps.db, admin, c.req.param('id'), deps.env.DATA_DIR);
      return sendReceipt(c, file);
    })
    .get('/methods', async (c) => {
      await requireAdmin(deps.auth, c);
      return c.json({ items: await listMethods(deps.db, { activeOnly: false }) });
    })
    .post('/methods', async (c) => {
      const admin = await requireAdmin(deps.auth, c);
      const input = await readJson(c, CreateMethodSchema);
      return c.json(await createMethod(deps.db, admin.id, input, c.get('clientIp')), 201);
    })
    .patch('/methods/:id', async (c) => {
      const admin = await requireAdmin(deps.auth, c);
      const input = await readJson(c, UpdateMethodSchema);
      return c.json(
        await updateMethod(deps.db, admin.id, c.req.param('id'), input, c.get('clientIp')),
      );
    });
}
