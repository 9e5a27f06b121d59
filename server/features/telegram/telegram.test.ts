// Telegram notifications end to end against a local fake Bot API: linking (code → /start at the
// webhook), preferences by role, every notification kind raised through the code that causes
// it and delivered exactly once per recipient (also when its `notify` job runs twice), 429s
// waited out, blocked chats deactivated, unlinked people left alone.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { NotificationKind, NotificationSettings } from '../../../shared/schemas/notifications';
import { imeiFor } from '../../../tests/setup/imei';
import {
  createTestApp,
  GOOD_PASSWORD,
  registerVerified,
  signInAdmin,
  signInStaff,
  userIdOf,
  type TestApp,
  type TestClient,
} from '../../../tests/setup/test-app';
import { dbTargets } from '../../../tests/setup/test-db';
import { queryRows } from '../../db/client';
import { service } from '../../db/schema/catalogue';
import { orderDispatch, supplier } from '../../db/schema/suppliers';
import { telegramLink, telegramMessage } from '../../db/schema/telegram';
import { reviewStaleSends } from '../suppliers/dispatch.service';
import { recordBalance, recordHealth } from '../suppliers/suppliers.service';
import { startFakeTelegram, type FakeTelegram } from './fake-telegram';
import { runNotify } from './notify.service';
import { sendTelegram } from './sender.service';

const SECRET = 'telegram-webhook-secret-for-tests';

describe.each(dbTargets())('Telegram notifications on %s', (target) => {
  let t: TestApp;
  let fake: FakeTelegram;
  let admin: Awaited<ReturnType<typeof signInStaff>>;
  let support: Awaited<ReturnType<typeof signInStaff>>;
  let finance: Awaited<ReturnType<typeof signInStaff>>;
  let manualService: string;
  let updateId = 1000;
  let chatSerial = 5000;
  let serial = 0;

  function webhook(body: unknown, secret: string | null = SECRET) {
    return t.app.request('/api/telegram/webhook', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(secret === null ? {} : { 'x-telegram-bot-api-secret-token': secret }),
      },
      body: JSON.stringify(body),
    });
  }

  function startUpdate(chatId: string, text: string) {
    updateId += 1;
    return {
      update_id: updateId,
      message: {
        message_id: updateId,
        date: Math.floor(Date.now() / 1000),
        chat: { id: Number(chatId), type: 'private', first_name: 'Ana' },
        from: { id: Number(chatId), is_bot: false, first_name: 'Ana', username: `ana${chatId}` },
        text,
      },
    };
  }

  /** Links the client's account to a new chat; returns the chat id. */
  async function link(client: TestClient): Promise<string> {
    chatSerial += 1;
    const chatId = String(chatSerial);
    const res = await client.post('/api/me/telegram/link');
    expect(res.status).toBe(201);
    const { code } = (await res.json()) as { code: string };
    expect((await webhook(startUpdate(chatId, `/start ${code}`))).status).toBe(200);
    await drain();
    return chatId;
  }

  async function settingsOf(client: TestClient): Promise<NotificationSettings> {
    const res = await client.get('/api/me/notifications');
    expect(res.status).toBe(200);
    return (await res.json()) as NotificationSettings;
  }

  async function choose(client: TestClient, kinds: NotificationKind[]) {
    const res = await client.request('PUT', '/api/me/notifications', { telegram: kinds });
    expect(res.status).toBe(200);
  }

  type JobRow = { id: string; data: Record<string, unknown> };
  async function waitingJobs(name: 'notify' | 'telegram-send'): Promise<JobRow[]> {
    return queryRows<JobRow>(
      t.database.db,
      sql`SELECT id::text AS id, data FROM pgboss.job
          WHERE name = ${name} AND state = 'created' AND start_after <= now()
          ORDER BY created_on`,
    );
  }
  async function finish(ids: string[]) {
    if (ids.length === 0) return;
    await t.database.db.execute(
      sql`UPDATE pgboss.job SET state = 'completed', completed_on = now()
          WHERE id IN (${sql.join(
            ids.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})`,
    );
  }

  /**
   * Runs the notify and send jobs as the workers would (each notify job twice: a retried job
   * must send nothing more), until none is left, including those rescheduled for later.
   */
  const sendFailures: unknown[] = [];
  async function drain(timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const notify = await waitingJobs('notify');
      for (const job of notify) {
        await runNotify(t.deps, job.id, job.data as never);
        await runNotify(t.deps, job.id, job.data as never);
      }
      await finish(notify.map((j) => j.id));
      const sends = await waitingJobs('telegram-send');
      for (const job of sends) {
        // A passing failure throws (pg-boss would retry the job): the test retries by hand.
        await sendTelegram(t.deps, String(job.data.messageId)).catch((err: unknown) =>
          sendFailures.push(err),
        );
      }
      await finish(sends.map((j) => j.id));
      if (notify.length === 0 && sends.length === 0) {
        const [left] = await queryRows<{ n: number }>(
          t.database.db,
          sql`SELECT count(*)::int AS n FROM pgboss.job
              WHERE name IN ('notify', 'telegram-send') AND state = 'created'`,
        );
        if (!left?.n) return;
        if (Date.now() > deadline) throw new Error('jobs still waiting');
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }

  async function fund(userId: string, amount: string) {
    const res = await admin.client.post(`/api/admin/users/${userId}/adjustments`, {
      amount,
      reason: 'Saldo de prueba',
    });
    expect(res.status).toBe(201);
  }

  async function placeOrder(client: TestClient) {
    serial += 1;
    return client.post('/api/orders', {
      serviceId: manualService,
      fields: { imei: imeiFor(serial) },
    });
  }

  beforeAll(async () => {
    fake = await startFakeTelegram();
    t = await createTestApp(target, {
      TELEGRAM_BOT_TOKEN: fake.token,
      TELEGRAM_WEBHOOK_SECRET: SECRET,
      TELEGRAM_API_BASE: fake.baseUrl,
    });
    admin = await signInAdmin(t);
    support = await signInStaff(t, 'support');
    finance = await signInStaff(t, 'finance');
    const [row] = await t.database.db
      .insert(service)
      .values({
        category: 'IMEI',
        name: 'Consulta <Telcel> & más',
        description: 'Operador y bloqueo.',
        deliveryTime: '1–24 horas',
        price: 100n,
        fields: [{ key: 'imei', label: 'IMEI', type: 'imei', required: true, identifier: true }],
      })
      .returning({ id: service.id });
    manualService = row!.id;
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(async () => {
    await drain();
    fake.reset();
  });

  it('links an account with a one-time code sent to the bot, and refuses it a second time', async () => {
    const { client } = await registerVerified(t);
    const before = await client.get('/api/me/notifications');
    expect(await before.json()).toMatchObject({
      telegram: [],
      available: ['order.completed', 'order.rejected', 'ticket.reply'],
      telegramLink: null,
      telegramEnabled: true,
    });
    const res = await client.post('/api/me/telegram/link');
    expect(res.status).toBe(201);
    const body = (await res.json()) as { code: string; url: string; expiresAt: string };
    expect(body.url).toBe(`https://t.me/${fake.username}?start=${body.code}`);
    expect(new Date(body.expiresAt).getTime() - Date.now()).toBeGreaterThan(14 * 60_000);

    // The wrong secret, or none: 401 and nothing changes.
    expect((await webhook(startUpdate('777', `/start ${body.code}`), 'wrong-secret')).status).toBe(
      401,
    );
    expect((await webhook(startUpdate('777', `/start ${body.code}`), null)).status).toBe(401);
    await drain();
    expect(fake.messages).toHaveLength(0);
    expect((await settingsOf(client)).telegramLink).toBeNull();

    const update = startUpdate('777', `/start ${body.code}`);
    expect((await webhook(update)).status).toBe(200);
    // Telegram delivering the same update again changes nothing and replies nothing more.
    expect((await webhook(update)).status).toBe(200);
    await drain();
    expect(fake.to('777')).toHaveLength(1);
    expect(fake.to('777')[0]!.text).toMatch(/^Listo: tu cuenta quedó vinculada/);
    const linked = (await (await client.get('/api/me/notifications')).json()) as {
      telegram: string[];
      telegramLink: { username: string; active: boolean };
    };
    // Linking chooses every kind the account may receive.
    expect(linked.telegram).toEqual(['order.completed', 'order.rejected', 'ticket.reply']);
    expect(linked.telegramLink).toMatchObject({ username: 'ana777', active: true });

    // The code is spent: another chat sending it gets a helpful answer, and no link.
    expect((await webhook(startUpdate('888', `/start ${body.code}`))).status).toBe(200);
    expect((await webhook(startUpdate('888', '/start'))).status).toBe(200);
    await drain();
    expect(fake.to('888').map((m) => m.text)).toEqual([
      expect.stringMatching(/no es válido o ya caducó/),
      expect.stringMatching(/Vincular Telegram/),
    ]);
    const [row] = await t.database.db
      .select()
      .from(telegramLink)
      .where(eq(telegramLink.chatId, '888'));
    expect(row).toBeUndefined();

    // /stop unlinks.
    expect((await webhook(startUpdate('777', '/stop'))).status).toBe(200);
    await drain();
    expect(fake.to('777').at(-1)!.text).toMatch(/^Listo: desvinculamos/);
    expect((await settingsOf(client)).telegramLink).toBeNull();
  });

  it('refuses an expired code', async () => {
    const { client } = await registerVerified(t);
    const res = await client.post('/api/me/telegram/link');
    const { code } = (await res.json()) as { code: string };
    await t.database.db.execute(
      sql`UPDATE telegram_link_code SET expires_at = now() - interval '1 minute'`,
    );
    expect((await webhook(startUpdate('999', `/start ${code}`))).status).toBe(200);
    await drain();
    expect(fake.to('999')[0]!.text).toMatch(/no es válido o ya caducó/);
    expect((await settingsOf(client)).telegramLink).toBeNull();
  });

  it('accepts only the kinds each role may receive', async () => {
    const { client } = await registerVerified(t);
    const refused = await client.request('PUT', '/api/me/notifications', {
      telegram: ['order.completed', 'payment.pending'],
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { telegram: expect.stringContaining('payment.pending') as unknown },
    });
    const unknown = await client.request('PUT', '/api/me/notifications', { telegram: ['nope'] });
    expect(unknown.status).toBe(400);
    const ok = await client.request('PUT', '/api/me/notifications', {
      telegram: ['order.rejected', 'order.rejected'],
    });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as NotificationSettings).telegram).toEqual(['order.rejected']);

    const kinds = async (c: TestClient) =>
      ((await (await c.get('/api/me/notifications')).json()) as { available: string[] }).available;
    expect(await kinds(support.client)).toEqual(['ticket.new', 'ticket.reply', 'order.review']);
    expect(await kinds(finance.client)).toEqual(['payment.pending', 'credit.limit']);
    expect(await kinds(admin.client)).toHaveLength(7);
    expect(
      (
        await support.client.request('PUT', '/api/me/notifications', {
          telegram: ['supplier.failing'],
        })
      ).status,
    ).toBe(400);
    expect(
      (await finance.client.request('PUT', '/api/me/notifications', { telegram: ['order.review'] }))
        .status,
    ).toBe(400);
  });

  it('delivers each kind exactly once to each recipient who chose it', async () => {
    const customer = await registerVerified(t, 'Carla Cliente');
    const customerId = await userIdOf(t, customer.email);
    const bystander = await registerVerified(t, 'Nadie Vinculado');
    const bystanderId = await userIdOf(t, bystander.email);
    const adminChat = await link(admin.client);
    const supportChat = await link(support.client);
    const financeChat = await link(finance.client);
    const customerChat = await link(customer.client);
    // At most three kinds per chat, so the 1-per-second pacing keeps the test short.
    await choose(admin.client, ['supplier.failing']);
    await choose(support.client, ['ticket.new', 'ticket.reply', 'order.review']);
    await choose(finance.client, ['payment.pending', 'credit.limit']);
    fake.reset();

    // order.completed and order.rejected: an admin finishes two orders.
    await fund(customerId, '2.00');
    await fund(bystanderId, '5.00');
    const first = (await (await placeOrder(customer.client)).json()) as { id: string };
    const second = (await (await placeOrder(customer.client)).json()) as { id: string };
    expect(
      (
        await admin.client.post(`/api/admin/orders/${first.id}/complete`, {
          result: 'Operador: Telcel <libre>',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await admin.client.post(`/api/admin/orders/${second.id}/reject`, {
          reason: 'IMEI no compatible',
        })
      ).status,
    ).toBe(200);
    // The bystander's order completes too, but they never linked Telegram.
    const theirs = (await (await placeOrder(bystander.client)).json()) as { id: string };
    expect(
      (await admin.client.post(`/api/admin/orders/${theirs.id}/complete`, { result: 'ok' })).status,
    ).toBe(200);

    // credit.limit: with US$1.00 left and a US$1.00 credit line, two orders spend it to the
    // limit…
    const limit = await finance.client.request(
      'PUT',
      `/api/admin/users/${customerId}/credit-limit`,
      { amount: '1.00' },
    );
    expect(limit.status).toBe(200);
    expect((await placeOrder(customer.client)).status).toBe(201);
    expect((await placeOrder(customer.client)).status).toBe(201);
    // …and the next is refused at the limit (the same hour: one message only).
    expect((await placeOrder(customer.client)).status).toBe(402);

    // payment.pending: the customer declares a bank transfer.
    const method = await admin.client.post('/api/admin/funds/methods', {
      name: 'Transferencia',
      instructions: 'Banco Ejemplo',
      minAmount: '1',
      maxAmount: '500',
    });
    expect(method.status).toBe(201);
    const { id: methodId } = (await method.json()) as { id: string };
    expect(
      (
        await customer.client.post('/api/funds/requests', {
          methodId,
          amount: '20',
          reference: 'TRX-1',
        })
      ).status,
    ).toBe(201);

    // order.review: a send interrupted long ago goes to «Revisar».
    const third = (await (await placeOrder(bystander.client)).json()) as { id: string };
    await t.database.db.insert(orderDispatch).values({
      orderId: third.id,
      state: 'sending',
      claimedAt: new Date(Date.now() - 3600_000),
    });
    expect(await reviewStaleSends(t.deps, 60)).toBe(1);

    // supplier.failing: a supplier starts failing (once, however many failures follow), and
    // another runs low on balance.
    const [sup] = await t.database.db
      .insert(supplier)
      .values({
        name: 'Proveedor Uno',
        protocol: 'dhru',
        url: 'https://proveedor.example',
        apiKeySealed: 'sealed',
        apiKeyHint: '••••abcd',
      })
      .returning();
    await recordHealth(t.database.db, sup!.id, { ok: false, message: 'Tiempo de espera agotado' });
    await recordHealth(t.database.db, sup!.id, { ok: false, message: 'Tiempo de espera agotado' });

    // ticket.new and ticket.reply (both ways), and an internal note nobody hears of, through
    // the support desk's routes.
    const opened = await customer.client.post('/api/tickets', {
      subject: 'Mi orden <no llega>',
      category: 'order',
      message: 'Hola,\nla orden no llega.\nGracias.',
    });
    expect(opened.status).toBe(201);
    const { id: ticketId } = (await opened.json()) as { id: string };
    expect(
      (await customer.client.post(`/api/tickets/${ticketId}/messages`, { body: 'Sigo esperando' }))
        .status,
    ).toBe(201);
    for (const [body, internal] of [
      ['Ya está en camino', false],
      ['Nota interna: costo alto', true],
    ] as const) {
      const res = await support.client.post(`/api/admin/tickets/${ticketId}/messages`, {
        body,
        internal,
      });
      expect(res.status).toBe(201);
    }

    await drain();

    const texts = (chat: string) => fake.to(chat).map((m) => m.text);
    expect(texts(customerChat)).toEqual([
      expect.stringMatching(
        /^✅ <b>Orden #\d+ completada<\/b>: Consulta &lt;Telcel&gt; &amp; más[\s\S]*Resultado:\nOperador: Telcel &lt;libre&gt;[\s\S]*\/orderhistory\?orden=/,
      ),
      expect.stringMatching(/^❌ <b>Orden #\d+ rechazada<\/b>[\s\S]*Motivo: IMEI no compatible/),
      expect.stringMatching(
        /Te respondimos en tu ticket #\d+<\/b>: Mi orden &lt;no llega&gt;[\s\S]*Ya está en camino[\s\S]*\/soporte\//,
      ),
    ]);
    expect(texts(financeChat)).toEqual([
      expect.stringMatching(/límite de crédito<\/b>: Carla Cliente/),
      expect.stringMatching(/Pago esperando aprobación<\/b>: US\$20\.00 de Carla Cliente/),
    ]);
    expect(texts(supportChat)).toEqual([
      expect.stringMatching(/Orden #\d+ en «Revisar»/),
      expect.stringMatching(
        /Ticket nuevo #\d+<\/b>: Mi orden &lt;no llega&gt;\n\nHola,\nla orden no llega\.[\s\S]*\/admin\/soporte\//,
      ),
      expect.stringMatching(/El cliente respondió en el ticket #\d+[\s\S]*Sigo esperando/),
    ]);
    expect(texts(adminChat)).toEqual([
      expect.stringMatching(/Proveedor Uno<\/b>: Falla al conectarse: Tiempo de espera agotado/),
    ]);
    expect(fake.messages.some((m) => m.text.includes('Nota interna'))).toBe(false);
    // One message a second per chat at most.
    for (const chat of [customerChat, supportChat, financeChat]) {
      const times = fake.to(chat).map((m) => m.at);
      for (let i = 1; i < times.length; i += 1)
        expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(950);
    }
    expect(fake.messages.every((m) => m.parseMode === 'HTML')).toBe(true);

    // A low balance reaches the admin too (the same kind), once.
    await recordBalance(
      t.deps,
      { ...sup!, lowBalanceMicros: 10_000_000n },
      {
        balance: '1.5',
        balanceMicros: 1_500_000n,
        currency: 'USD',
      },
    );
    await drain();
    expect(texts(adminChat)).toHaveLength(2);
    expect(texts(adminChat)[1]).toMatch(/Su saldo bajó a/);

    // Every message row is sent, one per event and recipient, none left pending.
    const rows = await t.database.db.select().from(telegramMessage);
    expect(rows.filter((r) => r.state === 'pending')).toHaveLength(0);
  });

  it('waits out a 429 and delivers once; a blocked chat deactivates the link', async () => {
    const { client, email } = await registerVerified(t);
    const id = await userIdOf(t, email);
    const chat = await link(client);
    fake.reset();
    await fund(id, '5.00');
    fake.rateLimit(chat, 1);
    const placed = (await (await placeOrder(client)).json()) as { id: string };
    await admin.client.post(`/api/admin/orders/${placed.id}/complete`, { result: 'listo' });
    await drain();
    expect(fake.calls.filter((c) => c.chatId === chat).map((c) => c.status)).toEqual([429, 200]);
    expect(fake.to(chat)).toHaveLength(1);
    const [row] = await t.database.db
      .select()
      .from(telegramMessage)
      .where(and(eq(telegramMessage.chatId, chat), eq(telegramMessage.kind, 'order.completed')));
    expect(row).toMatchObject({ state: 'sent', attempts: 0 });

    // The person blocks the bot: the next message answers 403, the link turns inactive…
    fake.block(chat);
    const next = (await (await placeOrder(client)).json()) as { id: string };
    expect(
      (await admin.client.post(`/api/admin/orders/${next.id}/reject`, { reason: 'Sin stock' }))
        .status,
    ).toBe(200);
    await drain();
    expect(fake.calls.filter((c) => c.chatId === chat).map((c) => c.status)).toEqual([
      429, 200, 403,
    ]);
    const settings = (await (await client.get('/api/me/notifications')).json()) as {
      telegramLink: { active: boolean };
    };
    expect(settings.telegramLink.active).toBe(false);
    // …and later events send nothing at all.
    const callsBefore = fake.calls.length;
    const last = (await (await placeOrder(client)).json()) as { id: string };
    await admin.client.post(`/api/admin/orders/${last.id}/complete`, { result: 'x' });
    await drain();
    expect(fake.calls.length).toBe(callsBefore);
    expect(fake.to(chat)).toHaveLength(1);
  });

  it('retries a passing failure, and drops a chat that no longer exists without retrying', async () => {
    const { client, email } = await registerVerified(t);
    const id = await userIdOf(t, email);
    const chat = await link(client);
    fake.reset();
    await fund(id, '5.00');
    fake.fail(chat, 1);
    const placed = (await (await placeOrder(client)).json()) as { id: string };
    await admin.client.post(`/api/admin/orders/${placed.id}/complete`, { result: 'listo' });
    sendFailures.length = 0;
    await drain();
    expect(sendFailures).toHaveLength(1);
    // The 502 threw (pg-boss retries the job); the row counts the attempt and stays pending.
    const [pending] = await t.database.db
      .select()
      .from(telegramMessage)
      .where(and(eq(telegramMessage.chatId, chat), eq(telegramMessage.kind, 'order.completed')));
    expect(pending).toMatchObject({ state: 'pending', attempts: 1 });
    // pg-boss's retry: the same job runs again and delivers.
    expect(await sendTelegram(t.deps, pending!.id)).toBe('sent');
    expect(await sendTelegram(t.deps, pending!.id)).toBe('nothing-to-do');
    expect(fake.to(chat)).toHaveLength(1);

    fake.forget(chat);
    const next = (await (await placeOrder(client)).json()) as { id: string };
    await admin.client.post(`/api/admin/orders/${next.id}/complete`, { result: 'listo' });
    await drain();
    expect((await settingsOf(client)).telegramLink).toMatchObject({ active: false });
    expect(fake.calls.filter((c) => c.chatId === chat).map((c) => c.status)).toEqual([
      502, 200, 400,
    ]);
  });

  it('marks the link inactive when Telegram says the person blocked the bot', async () => {
    const { client } = await registerVerified(t);
    const chat = await link(client);
    updateId += 1;
    const res = await webhook({
      update_id: updateId,
      my_chat_member: {
        chat: { id: Number(chat), type: 'private' },
        from: { id: Number(chat), is_bot: false, first_name: 'Ana' },
        date: 1,
        old_chat_member: { status: 'member', user: { id: 1, is_bot: true, first_name: 'b' } },
        new_chat_member: {
          status: 'kicked',
          user: { id: 1, is_bot: true, first_name: 'b' },
          until_date: 0,
        },
      },
    });
    expect(res.status).toBe(200);
    const settings = (await (await client.get('/api/me/notifications')).json()) as {
      telegramLink: { active: boolean };
    };
    expect(settings.telegramLink.active).toBe(false);
    // Unknown updates are acknowledged and ignored.
    updateId += 1;
    expect((await webhook({ update_id: updateId, edited_message: { text: 'x' } })).status).toBe(
      200,
    );
    expect((await webhook('not an update')).status).toBe(200);
  });

  it('exempts only the webhook from the same-origin guard', async () => {
    updateId += 1;
    const foreign = await t.app.request('/api/telegram/webhook', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: 'https://elsewhere.example',
        'sec-fetch-site': 'cross-site',
        'x-telegram-bot-api-secret-token': SECRET,
      },
      body: JSON.stringify({ update_id: updateId }),
    });
    expect(foreign.status).toBe(200);
    const { client } = await registerVerified(t);
    const refused = await client.request('DELETE', '/api/me/telegram', undefined, {
      Origin: 'https://elsewhere.example',
    });
    expect(refused.status).toBe(403);
    const near = await t.app.request('/api/telegram/webhook/x', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://elsewhere.example' },
      body: '{}',
    });
    expect(near.status).toBe(403);
  });

  it('forgets the chat, the choices and the messages when the account is deleted', async () => {
    const { client, email } = await registerVerified(t);
    const id = await userIdOf(t, email);
    await link(client);
    const deleted = await client.post('/api/me/delete', {
      password: GOOD_PASSWORD,
      confirm: 'ELIMINAR',
    });
    expect(deleted.status).toBe(200);
    const count = async (table: string) =>
      (
        await queryRows<{ n: number }>(
          t.database.db,
          sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE user_id = ${id}`,
        )
      )[0]?.n;
    for (const table of [
      'telegram_link',
      'telegram_link_code',
      'notification_preference',
      'telegram_message',
    ])
      expect(await count(table)).toBe(0);
  });

  it('answers 404 while the shop has no bot', async () => {
    const off = t.appWith({ env: { ...t.env, telegram: null } });
    const { client } = await registerVerified(t);
    const res = await off.request('/api/telegram/webhook', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': SECRET },
      body: JSON.stringify(startUpdate('1', '/start')),
    });
    expect(res.status).toBe(404);
    // The client's own app has Telegram; the link route of an app without it says so.
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const link = await off.request('/api/me/telegram/link', {
      method: 'POST',
      headers: { cookie, origin: 'http://localhost:3000' },
    });
    expect(link.status).toBe(404);
    expect(await link.json()).toMatchObject({
      message: expect.stringMatching(/Telegram no están disponibles/) as unknown,
    });
  });
  // Last: once the workers run, they take the jobs the other tests drain by hand.
  it('the server’s workers deliver a notification on their own', async () => {
    const { client, email } = await registerVerified(t);
    const id = await userIdOf(t, email);
    const chat = await link(client);
    await fund(id, '5.00');
    fake.reset();
    await t.startWorkers({ timers: false, pollingIntervalSeconds: 0.5 });
    const placed = (await (await placeOrder(client)).json()) as { id: string };
    await admin.client.post(`/api/admin/orders/${placed.id}/complete`, { result: 'Listo y libre' });
    await expect
      .poll(() => fake.to(chat).map((m) => m.text), { timeout: 15_000 })
      .toEqual([expect.stringMatching(/completada[\s\S]*Listo y libre/)]);
  });
});
