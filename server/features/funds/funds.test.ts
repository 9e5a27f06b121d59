import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, isNotNull } from 'drizzle-orm';
import { type Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PaymentDto } from '../../../shared/schemas/wallet';
import {
  createTestApp,
  registerVerified,
  signInAdmin,
  TEST_ORIGIN,
  userIdOf,
  type TestApp,
  type TestClient,
} from '../../../tests/setup/test-app';
import { dbTargets } from '../../../tests/setup/test-db';
import { auditLog, payment } from '../../db/schema/payments';
import { ledgerTransfer } from '../../db/schema/ledger';
import type { AppEnv } from '../../lib/http';
import { createLogger } from '../../lib/logger';
import { createMailer, type Mailer } from '../../lib/mail';
import { verifyLedger } from '../ledger/ledger.verify';
import {
  RECEIPT_TOO_LARGE_MESSAGE,
  RECEIPT_TYPE_MESSAGE,
  type AdminRequestDto,
  type MethodDto,
} from '../../../shared/schemas/funds';
import { approve, createRequest } from './funds.service';
import { receiptsDir } from './receipts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');

type FundsApp = Hono<AppEnv>;
type SendOptions = {
  json?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
  ip?: string;
};

/** The real app, with the test's mailer. */
function buildApp(t: TestApp, mailer: Mailer): FundsApp {
  return t.appWith({ mailer });
}

function send(
  app: FundsApp,
  client: TestClient | null,
  method: string,
  url: string,
  options: SendOptions = {},
): Promise<Response> {
  const headers: Record<string, string> = {
    Origin: TEST_ORIGIN,
    'x-cometa-client-ip': options.ip ?? '127.0.0.1',
    ...options.headers,
  };
  if (client?.cookies.size) {
    headers.Cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  return Promise.resolve(app.request(url, { method, headers, body }));
}

async function json<T>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

function requestForm(fields: Record<string, string>, receipt?: File): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (receipt) form.append('receipt', receipt);
  return form;
}

describe.each(dbTargets())('manual top-ups on %s', (target) => {
  let t: TestApp;
  let app: FundsApp;
  let admin: Awaited<ReturnType<typeof signInAdmin>>;
  let bank: MethodDto;

  async function newMethod(input: Record<string, unknown>): Promise<MethodDto> {
    const res = await send(app, admin.client, 'POST', '/api/admin/funds/methods', { json: input });
    expect(res.status).toBe(201);
    return json<MethodDto>(res);
  }

  async function declare(
    client: TestClient,
    amount = '25.00',
    reference = 'TRX-000123',
    methodId = bank.id,
  ): Promise<PaymentDto> {
    const res = await send(app, client, 'POST', '/api/funds/requests', {
      json: { methodId, amount, reference },
    });
    expect(res.status).toBe(201);
    return json<PaymentDto>(res);
  }

  async function balanceOf(client: TestClient): Promise<string> {
    const res = await client.get('/api/wallet');
    expect(res.status).toBe(200);
    return (await json<{ available: string }>(res)).available;
  }

  beforeAll(async () => {
    t = await createTestApp(target);
    const logger = createLogger('silent');
    app = buildApp(t, createMailer({ from: t.env.MAIL_FROM, dataDir: t.env.DATA_DIR, logger }));
    admin = await signInAdmin(t);
    bank = await newMethod({
      name: 'Transferencia bancaria',
      instructions: 'Banco Ejemplo, cuenta 0123-4567. Indica tu correo en el concepto.',
      minAmount: '10',
      maxAmount: '500.00',
      sortOrder: 1,
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('lets the admin create and change methods, audited with before/after', async () => {
    expect(bank).toMatchObject({
      name: 'Transferencia bancaria',
      minAmount: '10.00',
      maxAmount: '500.00',
      active: true,
      sortOrder: 1,
    });
    const [created] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'manual_method.create'), eq(auditLog.targetId, bank.id)));
    expect(created).toMatchObject({ actorId: admin.id, targetType: 'manual_method', before: null });
    expect(created?.after).toMatchObject({ name: 'Transferencia bancaria', minAmount: '10.00' });

    const paypal = await newMethod({
      name: 'PayPal',
      instructions: 'Envía a pagos@example.com como «amigos y familiares».',
      minAmount: '5',
      maxAmount: '100',
    });
    const changed = await send(
      app,
      admin.client,
      'PATCH',
      `/api/admin/funds/methods/${paypal.id}`,
      {
        json: { maxAmount: '200.00', sortOrder: 2 },
      },
    );
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({
      name: 'PayPal',
      maxAmount: '200.00',
      sortOrder: 2,
      active: true,
    });
    const [updated] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'manual_method.update'), eq(auditLog.targetId, paypal.id)));
    expect(updated?.before).toMatchObject({ maxAmount: '100.00', sortOrder: 0 });
    expect(updated?.after).toMatchObject({ maxAmount: '200.00', sortOrder: 2 });

    const list = await send(app, admin.client, 'GET', '/api/admin/funds/methods');
    const names = (await json<{ items: MethodDto[] }>(list)).items.map((m) => m.name);
    expect(names).toEqual(['Transferencia bancaria', 'PayPal']);
  });

  it('validates methods with Spanish field messages', async () => {
    async function fields(method: string, url: string, body: unknown) {
      const res = await send(app, admin.client, method, url, { json: body });
      expect(res.status).toBe(400);
      return (await json<{ fields: Record<string, string> }>(res)).fields;
    }
    const valid = { name: 'Cripto', instructions: 'USDT TRC20', minAmount: '10', maxAmount: '50' };
    expect(await fields('POST', '/api/admin/funds/methods', { ...valid, minAmount: '60' })).toEqual(
      { maxAmount: 'El máximo debe ser mayor o igual que el mínimo.' },
    );
    expect(
      (await fields('POST', '/api/admin/funds/methods', { ...valid, name: 'x'.repeat(81) })).name,
    ).toBe('El nombre no puede tener más de 80 caracteres.');
    expect(
      (
        await fields('POST', '/api/admin/funds/methods', {
          ...valid,
          instructions: 'x'.repeat(2001),
        })
      ).instructions,
    ).toBe('Las instrucciones no pueden tener más de 2000 caracteres.');
    expect(
      (await fields('POST', '/api/admin/funds/methods', { ...valid, minAmount: '1.234' }))
        .minAmount,
    ).toMatch(/importe válido/);
    // min above the stored max
    expect(
      await fields('PATCH', `/api/admin/funds/methods/${bank.id}`, { minAmount: '600' }),
    ).toEqual({
      minAmount: 'El máximo debe ser mayor o igual que el mínimo.',
    });
    const missing = await send(app, admin.client, 'PATCH', '/api/admin/funds/methods/nope', {
      json: { active: false },
    });
    expect(missing.status).toBe(404);
  });

  it('keeps a fee per method (none by default) and stores it on each declaration', async () => {
    const wire = await newMethod({
      name: 'Giro internacional',
      instructions: 'Envía el giro a nombre de Cometa.',
      minAmount: '10',
      maxAmount: '500',
      feePercent: '2.9',
      feeFixed: '0.30',
    });
    expect(wire.fee).toEqual({ percent: '2.90', fixed: '0.30' });
    expect(bank.fee).toEqual({ percent: '0.00', fixed: '0.00' });
    const badPercent = await send(
      app,
      admin.client,
      'PATCH',
      `/api/admin/funds/methods/${wire.id}`,
      {
        json: { feePercent: '50.01', feeFixed: '-1' },
      },
    );
    expect(badPercent.status).toBe(400);
    expect((await json<{ fields: Record<string, string> }>(badPercent)).fields).toEqual({
      feePercent: 'Escribe un porcentaje entre 0 y 50, con hasta dos decimales (por ejemplo 2.90).',
      feeFixed: 'Escribe una comisión fija válida, con hasta dos decimales (por ejemplo 0.30).',
    });
    const { client } = await registerVerified(t, 'Marta Giro');
    const listed = await json<{ manual: MethodDto[] }>(
      await send(app, client, 'GET', '/api/funds/methods'),
    );
    expect(listed.manual.find((m) => m.id === wire.id)?.fee).toEqual({
      percent: '2.90',
      fixed: '0.30',
    });
    // 2.90 % of 100.00 plus 0.30: the customer sends 103.20 for 100.00 credited.
    const declared = await declare(client, '100.00', 'GIRO-881', wire.id);
    expect(declared).toMatchObject({ amount: '100.00', fee: '3.20', status: 'pending' });
    const [row] = await t.database.db.select().from(payment).where(eq(payment.id, declared.id));
    expect(row).toMatchObject({ amount: 10000n, fee: 320n });
    const changed = await send(app, admin.client, 'PATCH', `/api/admin/funds/methods/${wire.id}`, {
      json: { feePercent: '0', feeFixed: '0' },
    });
    expect(changed.status).toBe(200);
    expect((await json<MethodDto>(changed)).fee).toEqual({ percent: '0.00', fixed: '0.00' });
    await send(app, admin.client, 'PATCH', `/api/admin/funds/methods/${wire.id}`, {
      json: { active: false },
    });
  });

  it('shows customers the active methods only, without admin fields', async () => {
    const hidden = await newMethod({
      name: 'Efectivo en oficina',
      instructions: 'Solo con cita.',
      minAmount: '1',
      maxAmount: '10',
      active: false,
    });
    const { client } = await registerVerified(t, 'Lucía Méndez');
    const res = await send(app, client, 'GET', '/api/funds/methods');
    expect(res.status).toBe(200);
    const { manual } = await json<{ manual: Record<string, unknown>[] }>(res);
    expect(manual.map((m) => m.name)).toEqual(['Transferencia bancaria', 'PayPal']);
    expect(manual.find((m) => m.id === bank.id)).toEqual({
      id: bank.id,
      name: 'Transferencia bancaria',
      instructions: bank.instructions,
      minAmount: '10.00',
      maxAmount: '500.00',
      fee: { percent: '0.00', fixed: '0.00' },
    });
    const refused = await send(app, client, 'POST', '/api/funds/requests', {
      json: { methodId: hidden.id, amount: '5', reference: 'ABC-1' },
    });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({
      message: 'Ese método de pago no está disponible.',
    });
  });

  it('records a declared US$25.00 as pending, without crediting anything', async () => {
    const { client } = await registerVerified(t, 'Mario López');
    const created = await declare(client, '25', '  REF-778899  ');
    expect(created).toMatchObject({
      method: 'manual',
      methodName: 'Transferencia bancaria',
      amount: '25.00',
      status: 'pending',
      reference: 'REF-778899',
      rejectReason: null,
      hasReceipt: false,
      reviewedAt: null,
    });
    expect(await balanceOf(client)).toBe('0.00');
    const list = await send(app, client, 'GET', '/api/funds/requests');
    expect((await json<{ items: PaymentDto[] }>(list)).items).toEqual([created]);
  });

  it('enforces the method limits and validates the fields in Spanish', async () => {
    const { client } = await registerVerified(t);
    async function attempt(body: Record<string, unknown>) {
      return send(app, client, 'POST', '/api/funds/requests', { json: body });
    }
    const base = { methodId: bank.id, amount: '25', reference: 'REF-1' };
    const low = await attempt({ ...base, amount: '9.99' });
    expect(low.status).toBe(400);
    expect(await low.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'Revisa los campos marcados.',
      fields: { amount: 'El mínimo para Transferencia bancaria es US$10.00.' },
    });
    const high = await attempt({ ...base, amount: '500.01' });
    expect((await json<{ fields: Record<string, string> }>(high)).fields).toEqual({
      amount: 'El máximo para Transferencia bancaria es US$500.00.',
    });
    const bad = await attempt({ methodId: bank.id, amount: '1e3', reference: 'ab' });
    expect(bad.status).toBe(400);
    expect((await json<{ fields: Record<string, string> }>(bad)).fields).toEqual({
      amount: 'Escribe un importe válido, con hasta dos decimales (por ejemplo 25.50).',
      reference: 'La referencia debe tener al menos 3 caracteres.',
    });
    const long = await attempt({ ...base, reference: 'x'.repeat(121) });
    expect((await json<{ fields: Record<string, string> }>(long)).fields.reference).toBe(
      'La referencia no puede tener más de 120 caracteres.',
    );
    for (const methodId of [randomUUID(), 'not-a-uuid']) {
      const unknown = await attempt({ ...base, methodId });
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({
        code: 'NOT_FOUND',
        message: 'Ese método de pago no está disponible.',
      });
    }
    const notJson = await send(app, client, 'POST', '/api/funds/requests', {
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(notJson.status).toBe(415);
    expect(await notJson.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    const list = await send(app, client, 'GET', '/api/funds/requests');
    expect((await json<{ items: PaymentDto[] }>(list)).items).toEqual([]);
  });

  it('allows at most 5 pending requests per customer, even when sent at once', async () => {
    const { client } = await registerVerified(t);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        send(app, client, 'POST', '/api/funds/requests', {
          json: { methodId: bank.id, amount: '10', reference: `LOTE-${i}` },
        }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, 201, 201, 409, 409, 409]);
    const sixth = await send(app, client, 'POST', '/api/funds/requests', {
      json: { methodId: bank.id, amount: '10', reference: 'LOTE-9' },
    });
    expect(sixth.status).toBe(409);
    expect(await sixth.json()).toEqual({
      code: 'CONFLICT',
      message: 'Ya tienes 5 solicitudes pendientes de revisión.',
    });
  });

  it('accepts a PNG receipt, readable by its owner and the admin, hidden from others', async () => {
    const owner = await registerVerified(t, 'Sofía Ramos');
    const other = await registerVerified(t, 'Pedro Gil');
    const res = await send(app, owner.client, 'POST', '/api/funds/requests', {
      form: requestForm(
        { methodId: bank.id, amount: '40.50', reference: 'PAYPAL-5XY' },
        new File([PNG], 'comprobante.png', { type: 'image/png' }),
      ),
    });
    expect(res.status).toBe(201);
    const created = await json<PaymentDto>(res);
    expect(created).toMatchObject({ amount: '40.50', hasReceipt: true, status: 'pending' });
    const [row] = await t.database.db.select().from(payment).where(eq(payment.id, created.id));
    expect(row).toMatchObject({
      receiptPath: `receipts/${created.id}.png`,
      receiptMime: 'image/png',
    });
    expect(await readFile(path.join(t.env.DATA_DIR, `receipts/${created.id}.png`))).toEqual(PNG);

    for (const [client, url] of [
      [owner.client, `/api/funds/requests/${created.id}/receipt`],
      [admin.client, `/api/admin/funds/requests/${created.id}/receipt`],
    ] as const) {
      const file = await send(app, client, 'GET', url);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('image/png');
      expect(file.headers.get('content-disposition')).toBe(
        `attachment; filename="comprobante-${created.id}.png"; filename*=UTF-8''comprobante-${created.id}.png`,
      );
      expect(file.headers.get('x-content-type-options')).toBe('nosniff');
      expect(Buffer.from(await file.arrayBuffer())).toEqual(PNG);
    }
    const stranger = await send(
      app,
      other.client,
      'GET',
      `/api/funds/requests/${created.id}/receipt`,
    );
    expect(stranger.status).toBe(404);
    const visitor = await send(app, null, 'GET', `/api/funds/requests/${created.id}/receipt`);
    expect(visitor.status).toBe(401);
    // A request without receipt has nothing to download.
    const plain = await declare(owner.client);
    const none = await send(app, owner.client, 'GET', `/api/funds/requests/${plain.id}/receipt`);
    expect(none.status).toBe(404);
    // Customer B does not see A's requests.
    const otherList = await send(app, other.client, 'GET', '/api/funds/requests');
    expect((await json<{ items: PaymentDto[] }>(otherList)).items).toEqual([]);
    const ownList = await send(app, owner.client, 'GET', '/api/funds/requests');
    expect((await json<{ items: PaymentDto[] }>(ownList)).items.map((p) => p.id)).toEqual([
      plain.id,
      created.id,
    ]);
  });

  it('accepts a PDF declared as octet-stream and stores the detected type', async () => {
    const { client } = await registerVerified(t);
    const res = await send(app, client, 'POST', '/api/funds/requests', {
      form: requestForm(
        { methodId: bank.id, amount: '12', reference: 'BANCO-42' },
        new File([PDF], 'recibo', { type: 'application/octet-stream' }),
      ),
    });
    expect(res.status).toBe(201);
    const created = await json<PaymentDto>(res);
    const file = await send(app, client, 'GET', `/api/funds/requests/${created.id}/receipt`);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(await file.text()).toBe(PDF.toString());
  });

  it('regression: receipts were served inline; they are downloads that cannot run scripts', async () => {
    const { client } = await registerVerified(t);
    const res = await send(app, client, 'POST', '/api/funds/requests', {
      form: requestForm(
        { methodId: bank.id, amount: '15', reference: 'PDF-JS-1' },
        new File([PDF], 'recibo.pdf', { type: 'application/pdf' }),
      ),
    });
    expect(res.status).toBe(201);
    const created = await json<PaymentDto>(res);
    for (const [who, url] of [
      [client, `/api/funds/requests/${created.id}/receipt`],
      [admin.client, `/api/admin/funds/requests/${created.id}/receipt`],
    ] as const) {
      const file = await send(app, who, 'GET', url);
      expect(file.status, url).toBe(200);
      expect(file.headers.get('content-type')).toBe('application/pdf');
      const disposition = file.headers.get('content-disposition') ?? '';
      expect(disposition).toMatch(/^attachment;/);
      expect(disposition).not.toMatch(/inline/);
      expect(disposition).toContain(`filename="comprobante-${created.id}.pdf"`);
      expect(disposition).toContain(`filename*=UTF-8''comprobante-${created.id}.pdf`);
      expect(file.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
      expect(file.headers.get('x-content-type-options')).toBe('nosniff');
      expect(file.headers.get('cache-control')).toBe('private, no-store');
      expect(await file.text()).toBe(PDF.toString());
    }
  });

  it('refuses a receipt sent as text instead of a file', async () => {
    const { client } = await registerVerified(t);
    const res = await send(app, client, 'POST', '/api/funds/requests', {
      form: requestForm({
        methodId: bank.id,
        amount: '15',
        reference: 'TEXTO-1',
        receipt: 'comprobante.png',
      }),
    });
    expect(res.status).toBe(400);
    expect((await json<{ fields: Record<string, string> }>(res)).fields).toEqual({
      receipt: 'Adjunta el comprobante como archivo.',
    });
  });

  it('refuses receipts that are not images or PDFs, or are too large', async () => {
    const { client } = await registerVerified(t);
    const fields = { methodId: bank.id, amount: '20', reference: 'REF-XYZ' };
    const fake = await send(app, client, 'POST', '/api/funds/requests', {
      form: requestForm(
        fields,
        new File(['hola, no soy una imagen'], 'foto.png', { type: 'image/png' }),
      ),
    });
    expect(fake.status).toBe(400);
    expect(await fake.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: RECEIPT_TYPE_MESSAGE,
      fields: { receipt: RECEIPT_TYPE_MESSAGE },
    });
    // Real PNG bytes, but declared as HTML: refused too.
    const html = await send(app, client, 'POST', '/api/funds/requests', {
      form: requestForm(fields, new File([PNG], 'x.html', { type: 'text/html' })),
    });
    expect(html.status).toBe(400);

    const big = new Uint8Array(6 * 1024 * 1024);
    big.set(PNG);
    const sixMb = await send(app, client, 'POST', '/api/funds/requests', {
      form: requestForm(fields, new File([big], 'grande.png', { type: 'image/png' })),
    });
    expect(sixMb.status).toBe(413);
    expect(await sixMb.json()).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: RECEIPT_TOO_LARGE_MESSAGE,
    });
    // Just over 5 MB: the body fits in 6 MB, the file does not.
    const justOver = await send(app, client, 'POST', '/api/funds/requests', {
      form: requestForm(
        fields,
        new File([big.subarray(0, 5 * 1024 * 1024 + 1)], 'a.png', { type: 'image/png' }),
      ),
    });
    expect(justOver.status).toBe(413);
    // A declared Content-Length over 6 MB is refused before reading anything.
    const declared = await send(app, client, 'POST', '/api/funds/requests', {
      json: fields,
      headers: { 'Content-Length': String(7 * 1024 * 1024) },
    });
    expect(declared.status).toBe(413);

    const list = await send(app, client, 'GET', '/api/funds/requests');
    expect((await json<{ items: PaymentDto[] }>(list)).items).toEqual([]);
  });

  it('approves once: +25.00, e-mail with the new balance, audit row; a second approval moves nothing', async () => {
    const { client, email } = await registerVerified(t, 'Elena Torres');
    const request = await declare(client, '25.00', 'BANCO-9001');

    const pending = await send(
      app,
      admin.client,
      'GET',
      '/api/admin/funds/requests?status=pending',
    );
    const queued = (await json<{ items: AdminRequestDto[] }>(pending)).items.find(
      (r) => r.id === request.id,
    );
    expect(queued).toMatchObject({
      customer: { name: 'Elena Torres', email },
      methodName: 'Transferencia bancaria',
      methodId: bank.id,
      amount: '25.00',
      reference: 'BANCO-9001',
      hasReceipt: false,
      status: 'pending',
    });

    const res = await send(
      app,
      admin.client,
      'POST',
      `/api/admin/funds/requests/${request.id}/approve`,
      {
        ip: '203.0.113.7',
      },
    );
    expect(res.status).toBe(200);
    const body = await json<{ payment: PaymentDto; balance: string }>(res);
    expect(body.balance).toBe('25.00');
    expect(body.payment).toMatchObject({ id: request.id, status: 'completed' });
    expect(body.payment.reviewedAt).not.toBeNull();
    expect(await balanceOf(client)).toBe('25.00');

    const mail = await t.waitForMail(email, /aprobada/);
    expect(mail.subject).toBe('Tu recarga de US$25.00 fue aprobada');
    expect(mail.text).toContain('Tu saldo disponible ahora es US$25.00.');
    expect(mail.text).toContain('BANCO-9001');

    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'payment.approve'), eq(auditLog.targetId, request.id)));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actorId: admin.id,
      targetType: 'payment',
      ipAddress: '203.0.113.7',
    });
    expect(audits[0]?.after).toMatchObject({ status: 'completed', amount: '25.00' });

    const again = await send(
      app,
      admin.client,
      'POST',
      `/api/admin/funds/requests/${request.id}/approve`,
    );
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({
      code: 'CONFLICT',
      message: 'Esta solicitud ya fue aprobada.',
    });
    const rejectApproved = await send(
      app,
      admin.client,
      'POST',
      `/api/admin/funds/requests/${request.id}/reject`,
      {
        json: { reason: 'Cambio de opinión' },
      },
    );
    expect(rejectApproved.status).toBe(409);
    expect(await rejectApproved.json()).toEqual({
      code: 'CONFLICT',
      message: 'Esta solicitud ya fue aprobada y no se puede rechazar.',
    });
    expect(await balanceOf(client)).toBe('25.00');
    const [after] = await t.database.db.select().from(payment).where(eq(payment.id, request.id));
    expect(after).toMatchObject({ status: 'completed', rejectReason: null, reviewedBy: admin.id });
    const completed = await send(
      app,
      admin.client,
      'GET',
      '/api/admin/funds/requests?status=completed',
    );
    expect((await json<{ items: AdminRequestDto[] }>(completed)).items.map((r) => r.id)).toContain(
      request.id,
    );
    const badStatus = await send(app, admin.client, 'GET', '/api/admin/funds/requests?status=todo');
    expect(badStatus.status).toBe(400);
  });

  it('rejects a pending request with a reason, once, and e-mails the customer', async () => {
    const { client, email } = await registerVerified(t, 'Raúl Vega');
    const request = await declare(client, '30', 'PP-ZZ1');
    const url = `/api/admin/funds/requests/${request.id}/reject`;
    const noReason = await send(app, admin.client, 'POST', url, { json: { reason: ' x ' } });
    expect(noReason.status).toBe(400);
    expect((await json<{ fields: Record<string, string> }>(noReason)).fields.reason).toBe(
      'Escribe el motivo del rechazo (al menos 3 caracteres).',
    );
    const res = await send(app, admin.client, 'POST', url, {
      json: { reason: 'No encontramos el pago en la cuenta.' },
    });
    expect(res.status).toBe(200);
    expect((await json<{ payment: PaymentDto }>(res)).payment).toMatchObject({
      status: 'rejected',
      rejectReason: 'No encontramos el pago en la cuenta.',
    });
    const [row] = await t.database.db.select().from(payment).where(eq(payment.id, request.id));
    expect(row).toMatchObject({
      status: 'rejected',
      rejectReason: 'No encontramos el pago en la cuenta.',
      reviewedBy: admin.id,
      transferId: null,
    });
    const mail = await t.waitForMail(email, /rechazada/);
    expect(mail.subject).toBe('Tu recarga de US$30.00 fue rechazada');
    expect(mail.text).toContain('Motivo: No encontramos el pago en la cuenta.');
    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'payment.reject'), eq(auditLog.targetId, request.id)));
    expect(audits).toHaveLength(1);

    const again = await send(app, admin.client, 'POST', url, { json: { reason: 'Otra vez' } });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({
      code: 'CONFLICT',
      message: 'Esta solicitud ya fue rechazada.',
    });
    const approveRejected = await send(
      app,
      admin.client,
      'POST',
      `/api/admin/funds/requests/${request.id}/approve`,
    );
    expect(approveRejected.status).toBe(409);
    expect(await balanceOf(client)).toBe('0.00');
    const list = await send(app, client, 'GET', '/api/funds/requests');
    expect((await json<{ items: PaymentDto[] }>(list)).items[0]).toMatchObject({
      status: 'rejected',
      rejectReason: 'No encontramos el pago en la cuenta.',
    });
  });

  it('credits exactly once under 50 concurrent approvals', async () => {
    const { client, email } = await registerVerified(t);
    const request = await declare(client, '77.70', 'CONC-50');
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        send(app, admin.client, 'POST', `/api/admin/funds/requests/${request.id}/approve`),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const transfers = await t.database.db
      .select()
      .from(ledgerTransfer)
      .where(eq(ledgerTransfer.idempotencyKey, `payment:${request.id}`));
    expect(transfers).toHaveLength(1);
    expect(transfers[0]?.amount).toBe(7770n);
    expect(await balanceOf(client)).toBe('77.70');
    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'payment.approve'), eq(auditLog.targetId, request.id)));
    expect(audits).toHaveLength(1);
    await t.waitForMail(email, /aprobada/);
    const mails = (await t.outbox()).filter((m) => m.to === email && /aprobada/.test(m.subject));
    expect(mails).toHaveLength(1);
  });

  it('does not let an admin review their own request', async () => {
    const own = await declare(admin.client, '15', 'MIO-001');
    const approved = await send(
      app,
      admin.client,
      'POST',
      `/api/admin/funds/requests/${own.id}/approve`,
    );
    expect(approved.status).toBe(403);
    expect(await approved.json()).toEqual({
      code: 'FORBIDDEN',
      message: 'No puedes revisar una solicitud tuya.',
    });
    const rejected = await send(
      app,
      admin.client,
      'POST',
      `/api/admin/funds/requests/${own.id}/reject`,
      {
        json: { reason: 'Me lo rechazo' },
      },
    );
    expect(rejected.status).toBe(403);
    const [row] = await t.database.db.select().from(payment).where(eq(payment.id, own.id));
    expect(row?.status).toBe('pending');
    // A second admin can.
    const other = await signInAdmin(t);
    const ok = await send(app, other.client, 'POST', `/api/admin/funds/requests/${own.id}/approve`);
    expect(ok.status).toBe(200);
  });

  it('keeps admin routes for admins: 403 for customers, 401 for visitors', async () => {
    const { client } = await registerVerified(t);
    const mine = await declare(client, '10', 'YO-MISMO');
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/admin/funds/requests?status=pending'],
      ['POST', `/api/admin/funds/requests/${mine.id}/approve`],
      ['POST', `/api/admin/funds/requests/${mine.id}/reject`, { reason: 'Nada' }],
      ['GET', `/api/admin/funds/requests/${mine.id}/receipt`],
      ['GET', '/api/admin/funds/methods'],
      [
        'POST',
        '/api/admin/funds/methods',
        { name: 'X', instructions: 'Y', minAmount: '1', maxAmount: '2' },
      ],
      ['PATCH', `/api/admin/funds/methods/${bank.id}`, { active: false }],
    ];
    for (const [method, url, body] of routes) {
      const customer = await send(app, client, method, url, { json: body });
      expect(customer.status, `${method} ${url}`).toBe(403);
      const visitor = await send(app, null, method, url, { json: body });
      expect(visitor.status, `${method} ${url}`).toBe(401);
    }
    for (const [method, url, body] of [
      ['GET', '/api/funds/methods'],
      ['GET', '/api/funds/requests'],
      ['POST', '/api/funds/requests', { methodId: bank.id, amount: '10', reference: 'ABC' }],
    ] as const) {
      const visitor = await send(app, null, method, url, { json: body });
      expect(visitor.status, `${method} ${url}`).toBe(401);
    }
    const [row] = await t.database.db.select().from(payment).where(eq(payment.id, mine.id));
    expect(row?.status).toBe('pending');
    const [method] = (
      await json<{ items: MethodDto[] }>(
        await send(app, admin.client, 'GET', '/api/admin/funds/methods'),
      )
    ).items.filter((m) => m.id === bank.id);
    expect(method?.active).toBe(true);
  });

  it('logs a failed e-mail and still approves', async () => {
    const { client, email } = await registerVerified(t);
    const request = await declare(client, '11', 'MAIL-KO');
    const logger = createLogger('silent');
    const logged = vi.spyOn(logger, 'error');
    const failing: Mailer = {
      kind: 'outbox',
      send: () => Promise.reject(new Error('smtp down')),
    };
    const result = await approve(t.database.db, admin.id, request.id, '127.0.0.1', {
      mailer: failing,
      logger,
      appName: 'Cometa',
      appUrl: t.env.APP_URL,
    });
    expect(result.balance).toBe('11.00');
    // The e-mail leaves after the commit, in the background: wait for its failure to be logged.
    await vi.waitFor(() => expect(logged).toHaveBeenCalledTimes(1));
    expect(await balanceOf(client)).toBe('11.00');
    expect((await t.outbox()).some((m) => m.to === email && /aprobada/.test(m.subject))).toBe(
      false,
    );
  });

  it('leaves no receipt file behind when the insert fails', async () => {
    const dir = receiptsDir(t.env.DATA_DIR);
    const before = await readdir(dir);
    await expect(
      createRequest(
        t.database.db,
        `ghost-${randomUUID()}`, // no such user: the payment's foreign key fails
        { methodId: bank.id, amount: '20', reference: 'FANTASMA' },
        { bytes: PNG, mime: 'image/png' },
        t.env.DATA_DIR,
      ),
    ).rejects.toThrow();
    expect(await readdir(dir)).toEqual(before);
  });

  it('keeps the ledger and the receipts folder consistent', async () => {
    const report = await verifyLedger(t.database.db);
    expect(report.problems).toEqual([]);
    const files = (await readdir(receiptsDir(t.env.DATA_DIR))).sort();
    const rows = await t.database.db
      .select({ path: payment.receiptPath })
      .from(payment)
      .where(isNotNull(payment.receiptPath));
    expect(files).toEqual(rows.map((r) => path.basename(r.path ?? '')).sort());
    // The admin's id was used for reviews; sanity check of the helper.
    expect(await userIdOf(t, admin.email)).toBe(admin.id);
  });
});
