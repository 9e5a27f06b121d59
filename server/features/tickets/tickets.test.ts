// The support desk, over the API, on both databases: tickets opened as JSON or with files, the
// conversation both ways with its states, close and reopen, the auto-close sweep, unread counts,
// the rate limit on new tickets, attachments checked from their content and served only to the
// people in the ticket, the e-mails and `notify` jobs every public message leaves, and who sees
// what (customer, another customer, support, finance, admin × ticket, internal note, file).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  CreatedTicketSchema,
  StaffTicketDetailSchema,
  StaffTicketListSchema,
  StaffTicketSummarySchema,
  TicketDetailSchema,
  TicketListSchema,
  TicketMessageDtoSchema,
  type StaffTicketList,
} from '../../../shared/schemas/tickets';
import { AdminOverviewSchema } from '../../../shared/schemas/admin-desk';
import { MeSchema } from '../../../shared/schemas/me';
import { json } from '../../../tests/setup/suppliers';
import {
  GOOD_PASSWORD,
  createTestApp,
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
import { rawRequest } from '../../security/api-surface';
import { AUTO_CLOSE_MESSAGE, autoCloseTickets } from './tickets.service';

const SHOP_INBOX = 'soporte@tienda.example.com';
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('IHDR-captura-de-pantalla'),
]);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n');
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(64, 1)]);
const HTML = Buffer.from('<!doctype html><script>alert(document.cookie)</script>');

/** Asymmetric matchers, typed (they are not a string or a number). */
const anyString: unknown = expect.any(String);
const anyNumber: unknown = expect.any(Number);

/** An answer's body, checked against its strict schema (no field more, none less). */
async function dto<S extends z.ZodType>(schema: S, res: Response, status: number) {
  return schema.parse(await json<unknown>(res, status));
}

type Person = { client: TestClient; email: string; id: string };

describe.each(dbTargets())('support desk on %s', (target) => {
  let t: TestApp;
  let admin: Person;
  let support: Person;
  let finance: Person;
  let alicia: Person;
  let bruno: Person;
  let aliciaOrder: { id: string; number: number };
  let aliciaOrder2: { id: string; number: number };
  let brunoOrder: { id: string; number: number };

  async function customer(name: string): Promise<Person> {
    const { client, email } = await registerVerified(t, name);
    const id = await userIdOf(t, email);
    await json(
      await admin.client.post(`/api/admin/users/${id}/adjustments`, {
        amount: '50.00',
        reason: 'Saldo de prueba',
      }),
      201,
    );
    return { client, email, id };
  }

  function form(fields: Record<string, string>, files: File[] = []): FormData {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.append(k, v);
    for (const file of files) f.append('files', file);
    return f;
  }

  function send(client: TestClient | null, method: string, url: string, body: FormData) {
    return rawRequest(t, { method, url, as: client, body });
  }

  async function open(client: TestClient, extra: Record<string, unknown> = {}) {
    return dto(
      CreatedTicketSchema,
      await client.post('/api/tickets', {
        subject: 'No llega el resultado',
        category: 'order',
        message: 'Hola, mi orden no avanza.',
        ...extra,
      }),
      201,
    );
  }

  async function notifyJobs(ticketId: string) {
    return queryRows<{ data: { kind: string; ticketId: string; messageId?: string } }>(
      t.database.db,
      sql`SELECT data FROM pgboss.job WHERE name = 'notify' AND data->>'ticketId' = ${ticketId}
          ORDER BY created_on`,
    );
  }

  async function mailsTo(to: string) {
    return (await t.outbox()).filter((m) => m.to === to);
  }

  async function auditActions(ticketId: string): Promise<string[]> {
    const rows = await queryRows<{ action: string }>(
      t.database.db,
      sql`SELECT action FROM audit_log WHERE target_type = 'ticket' AND target_id = ${ticketId}
          ORDER BY created_at`,
    );
    return rows.map((r) => r.action);
  }

  beforeAll(async () => {
    t = await createTestApp(target, {
      CONTACT_EMAIL: SHOP_INBOX,
      // The limit itself is tested on an app with a lower one.
      TICKET_RATE_LIMIT_PER_HOUR: '1000',
    });
    admin = await signInAdmin(t);
    support = await signInStaff(t, 'support');
    finance = await signInStaff(t, 'finance');
    alicia = await customer('Alicia Cliente');
    bruno = await customer('Bruno Cliente');
    const [svc] = await t.database.db
      .insert(service)
      .values({
        category: 'IMEI',
        name: 'Consulta IMEI (soporte)',
        description: 'Operador y bloqueo.',
        deliveryTime: '1–24 horas',
        price: 150n,
        fields: [{ key: 'imei', label: 'IMEI', type: 'imei', required: true, identifier: true }],
      })
      .returning({ id: service.id });
    aliciaOrder = await json(
      await alicia.client.post('/api/orders', {
        serviceId: svc!.id,
        fields: { imei: '359702373699048' },
      }),
      201,
    );
    aliciaOrder2 = await json(
      await alicia.client.post('/api/orders', {
        serviceId: svc!.id,
        fields: { imei: '356938035643809' },
      }),
      201,
    );
    brunoOrder = await json(
      await bruno.client.post('/api/orders', {
        serviceId: svc!.id,
        fields: { imei: '490154203237518' },
      }),
      201,
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it('opens a ticket as JSON (Spanish category, own order linked): sequential number, notify job, e-mail to the shop', async () => {
    const first = await open(alicia.client, {
      subject: 'Tengo un problema con esta orden',
      category: 'Orden',
      orderIds: [aliciaOrder.id],
    });
    expect(first.state).toBe('open');
    expect(first.number).toBeGreaterThanOrEqual(1001);
    const second = await open(alicia.client, { category: 'pago' });
    expect(second.number).toBe(first.number + 1);

    const detail = await dto(
      TicketDetailSchema,
      await alicia.client.get(`/api/tickets/${first.id}`),
      200,
    );
    expect(detail).toMatchObject({
      number: first.number,
      subject: 'Tengo un problema con esta orden',
      category: 'order',
      state: 'open',
      unread: 0,
      closedAt: null,
    });
    // The order as support sees it: no price, no cost.
    expect(detail.orders).toEqual([
      {
        id: aliciaOrder.id,
        number: aliciaOrder.number,
        serviceName: 'Consulta IMEI (soporte)',
        status: anyString,
      },
    ]);
    expect(detail.messages).toHaveLength(1);
    expect(detail.messages[0]).toMatchObject({
      authorKind: 'customer',
      authorName: 'Alicia Cliente',
      body: 'Hola, mi orden no avanza.',
      internal: false,
      attachments: [],
    });

    expect((await notifyJobs(first.id)).map((j) => j.data)).toEqual([
      { kind: 'ticket.new', ticketId: first.id },
    ]);
    const mail = await t.waitForMail(SHOP_INBOX, new RegExp(`\\[#${first.number}\\] Nuevo ticket`));
    expect(mail.text).toContain('Alicia Cliente');
    expect(mail.text).toContain('Categoría: Orden');
    expect(mail.links).toContain(`${t.env.APP_URL}/admin/soporte/${first.id}`);
  });

  it('refuses orders that are not the customer’s, and writes nothing', async () => {
    const before = await dto(TicketListSchema, await alicia.client.get('/api/tickets'), 200);
    const res = await alicia.client.post('/api/tickets', {
      subject: 'Orden ajena',
      category: 'order',
      orderIds: [brunoOrder.id],
      message: 'Esta no es mía.',
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { fields: Record<string, string> };
    expect(body.fields.orderIds).toMatch(/no existe o no es tuya/);
    const after = await dto(TicketListSchema, await alicia.client.get('/api/tickets'), 200);
    expect(after.items).toHaveLength(before.items.length);
  });

  it('opens a ticket with files (multipart): a PNG and a PDF kept, downloaded as attachments only by the people in the ticket', async () => {
    const created = await dto(
      CreatedTicketSchema,
      await send(
        alicia.client,
        'POST',
        '/api/tickets',
        form(
          {
            subject: 'Captura del error',
            category: 'cuenta',
            orderIds: aliciaOrder.id,
            message: 'Adjunto la captura y el recibo.',
          },
          [
            new File([PNG], 'captura.png', { type: 'image/png' }),
            new File([PDF], 'recibo.pdf', { type: 'application/pdf' }),
          ],
        ),
      ),
      201,
    );
    const detail = await dto(
      TicketDetailSchema,
      await alicia.client.get(`/api/tickets/${created.id}`),
      200,
    );
    expect(detail.category).toBe('account');
    expect(detail.orders.map((o) => o.id)).toEqual([aliciaOrder.id]);
    const files = detail.messages[0]!.attachments;
    expect(files.map((f) => [f.name, f.contentType, f.size])).toEqual([
      ['captura.png', 'image/png', PNG.length],
      ['recibo.pdf', 'application/pdf', PDF.length],
    ]);
    const png = files[0]!;
    expect(png.url).toBe(`/api/tickets/${created.id}/attachments/${png.id}`);

    const download = await alicia.client.get(png.url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toMatch(
      /^attachment; filename="captura.png"/,
    );
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await download.arrayBuffer()).equals(PNG)).toBe(true);

    // The desk downloads from its own route; anyone else gets 404 (or 403 for finance).
    const staffUrl = `/api/admin/tickets/${created.id}/attachments/${png.id}`;
    expect((await support.client.get(staffUrl)).status).toBe(200);
    expect((await admin.client.get(staffUrl)).status).toBe(200);
    expect((await finance.client.get(staffUrl)).status).toBe(403);
    expect((await bruno.client.get(png.url)).status).toBe(404);
    expect((await support.client.get(png.url)).status).toBe(404);
    expect((await rawRequest(t, { method: 'GET', url: png.url, as: null })).status).toBe(401);
  });

  it('takes a form with repeated order fields and files sent as files[]', async () => {
    const f = new FormData();
    f.append('subject', 'Dos órdenes');
    f.append('category', 'order');
    f.append('orderIds', aliciaOrder.id);
    f.append('orderIds', aliciaOrder2.id);
    f.append('message', 'Las dos fallan.');
    f.append('files[]', new File([PNG], 'uno.png'));
    const created = await dto(
      CreatedTicketSchema,
      await send(alicia.client, 'POST', '/api/tickets', f),
      201,
    );
    const detail = await dto(
      TicketDetailSchema,
      await alicia.client.get(`/api/tickets/${created.id}`),
      200,
    );
    expect(detail.orders.map((o) => o.id).sort()).toEqual([aliciaOrder.id, aliciaOrder2.id].sort());
    expect(detail.messages[0]!.attachments.map((a) => a.name)).toEqual(['uno.png']);
  });

  it('judges files by their content: a renamed program or HTML page, an oversized file and a 4th file are refused by name, and nothing is written', async () => {
    const before = (await dto(TicketListSchema, await alicia.client.get('/api/tickets'), 200)).items
      .length;
    const fields = { subject: 'Archivos', category: 'otro', message: 'Ver adjuntos.' };
    const cases: [File[], RegExp][] = [
      [
        [new File([PNG], 'bien.png'), new File([EXE], 'factura.pdf', { type: 'application/pdf' })],
        /«factura\.pdf» no es una imagen/,
      ],
      [[new File([HTML], 'foto.png', { type: 'image/png' })], /«foto\.png» no es una imagen/],
      [
        [new File([PNG, Buffer.alloc(5 * 1024 * 1024)], 'enorme.png')],
        /«enorme\.png» es demasiado grande \(máximo 5 MB\)/,
      ],
      [
        [1, 2, 3, 4].map((n) => new File([PNG], `captura-${n}.png`)),
        /como mucho 3 archivos por mensaje/,
      ],
    ];
    for (const [files, message] of cases) {
      const res = await send(alicia.client, 'POST', '/api/tickets', form(fields, files));
      expect(res.status).toBe(400);
      const body = (await res.json()) as { message: string; fields: Record<string, string> };
      expect(body.message).toMatch(message);
      expect(body.fields.files).toMatch(message);
    }
    const after = (await dto(TicketListSchema, await alicia.client.get('/api/tickets'), 200)).items
      .length;
    expect(after).toBe(before);
  });

  it('answers a conversation both ways: states, unread counts, e-mails and notify jobs', async () => {
    const ticket = await open(alicia.client, { subject: 'Consulta de estado' });

    // The desk sees it unread, reads it (with the customer's message marked read).
    const list = await dto(
      StaffTicketListSchema,
      await support.client.get(`/api/admin/tickets?q=%23${ticket.number}`),
      200,
    );
    expect(list.items.map((i) => [i.id, i.unread, i.customer.email])).toEqual([
      [ticket.id, 1, alicia.email],
    ]);
    const staffView = await dto(
      StaffTicketDetailSchema,
      await support.client.get(`/api/admin/tickets/${ticket.id}`),
      200,
    );
    expect(staffView.unread).toBe(0);
    expect(staffView.firstResponseSeconds).toBeNull();

    // A public answer with a file: answered, first response recorded, customer mailed.
    const answer = await dto(
      TicketMessageDtoSchema,
      await send(
        support.client,
        'POST',
        `/api/admin/tickets/${ticket.id}/messages`,
        form({ body: 'Ya revisamos tu orden: está en proceso.' }, [new File([PNG], 'estado.png')]),
      ),
      201,
    );
    expect(answer).toMatchObject({
      authorKind: 'staff',
      authorName: 'Sofía Soporte',
      internal: false,
    });
    expect(answer.attachments[0]!.url).toBe(
      `/api/admin/tickets/${ticket.id}/attachments/${answer.attachments[0]!.id}`,
    );
    const answered = await dto(
      StaffTicketDetailSchema,
      await support.client.get(`/api/admin/tickets/${ticket.id}`),
      200,
    );
    expect(answered.state).toBe('answered');
    expect(answered.firstResponseSeconds).toEqual(expect.any(Number));

    const mail = await t.waitForMail(alicia.email, new RegExp(`Re: \\[#${ticket.number}\\]`));
    expect(mail.text).toContain('Sofía Soporte respondió a tu ticket «Consulta de estado»');
    expect(mail.text).toContain('Ya revisamos tu orden: está en proceso.');
    expect(mail.text).toContain('Incluye 1 archivo adjunto.');
    expect(mail.links).toContain(`${t.env.APP_URL}/soporte/${ticket.id}`);
    // One e-mail for this answer (the ticket's opening mailed the shop, not the customer).
    expect(
      (await mailsTo(alicia.email)).filter((m) => m.subject.includes(`#${ticket.number}]`)),
    ).toHaveLength(1);

    // The customer has it unread: the badge, /api/me and the list say so, until they read it.
    expect(await json(await alicia.client.get('/api/tickets/unread'), 200)).toEqual({ unread: 1 });
    expect((await dto(MeSchema, await alicia.client.get('/api/me'), 200)).unreadTickets).toBe(1);
    const mine = await dto(TicketListSchema, await alicia.client.get('/api/tickets'), 200);
    expect(mine.items.find((i) => i.id === ticket.id)).toMatchObject({
      state: 'answered',
      unread: 1,
    });
    const read = await dto(
      TicketDetailSchema,
      await alicia.client.get(`/api/tickets/${ticket.id}`),
      200,
    );
    expect(read.unread).toBe(0);
    // The customer downloads the staff's file from their own route.
    const fileUrl = read.messages[1]!.attachments[0]!.url;
    expect(fileUrl).toBe(`/api/tickets/${ticket.id}/attachments/${answer.attachments[0]!.id}`);
    expect((await alicia.client.get(fileUrl)).status).toBe(200);
    expect(await json(await alicia.client.get('/api/tickets/unread'), 200)).toEqual({ unread: 0 });

    // Assigned to support, the customer's reply goes back to open and is mailed to the assignee.
    await json(
      await support.client.patch(`/api/admin/tickets/${ticket.id}`, { assigneeId: support.id }),
      200,
    );
    const reply = await dto(
      TicketMessageDtoSchema,
      await alicia.client.post(`/api/tickets/${ticket.id}/messages`, { body: 'Gracias, espero.' }),
      201,
    );
    expect(reply).toMatchObject({ authorKind: 'customer', body: 'Gracias, espero.' });
    const assigneeMail = await t.waitForMail(
      support.email,
      new RegExp(`\\[#${ticket.number}\\] Respuesta del cliente`),
    );
    expect(assigneeMail.text).toContain('Gracias, espero.');
    expect(assigneeMail.links).toContain(`${t.env.APP_URL}/admin/soporte/${ticket.id}`);
    const reopened = await dto(
      StaffTicketDetailSchema,
      await support.client.get(`/api/admin/tickets/${ticket.id}`),
      200,
    );
    expect(reopened.state).toBe('open');
    expect(reopened.assignee).toEqual({ id: support.id, name: 'Sofía Soporte' });

    // Staff answer asking for something: waiting_customer.
    await json(
      await support.client.post(`/api/admin/tickets/${ticket.id}/messages`, {
        body: 'Envíanos una captura, por favor.',
        state: 'esperando al cliente',
      }),
      201,
    );
    const waiting = await dto(
      TicketDetailSchema,
      await alicia.client.get(`/api/tickets/${ticket.id}`),
      200,
    );
    expect(waiting.state).toBe('waiting_customer');

    expect((await notifyJobs(ticket.id)).map((j) => j.data)).toEqual([
      { kind: 'ticket.new', ticketId: ticket.id },
      { kind: 'ticket.reply', ticketId: ticket.id, messageId: answer.id },
      { kind: 'ticket.reply', ticketId: ticket.id, messageId: reply.id },
      { kind: 'ticket.reply', ticketId: ticket.id, messageId: anyString },
    ]);
    expect(await auditActions(ticket.id)).toEqual(['ticket.assign', 'ticket.state']);
  });

  it('keeps internal notes and their files from the customer: not in the detail, 404 on download, no e-mail, no notify job', async () => {
    const ticket = await open(alicia.client, { subject: 'Nota interna' });
    const note = await dto(
      TicketMessageDtoSchema,
      await send(
        support.client,
        'POST',
        `/api/admin/tickets/${ticket.id}/messages`,
        form({ body: 'Cliente con historial de contracargos (NOTA-SECRETA).', internal: 'true' }, [
          new File([PDF], 'informe-interno.pdf'),
        ]),
      ),
      201,
    );
    expect(note.internal).toBe(true);
    const fileId = note.attachments[0]!.id;

    const customerView = await alicia.client.get(`/api/tickets/${ticket.id}`);
    const customerText = await customerView.text();
    expect(customerView.status).toBe(200);
    expect(customerText).not.toContain('NOTA-SECRETA');
    expect(customerText).not.toContain(fileId);
    expect(TicketDetailSchema.parse(JSON.parse(customerText)).state).toBe('open');
    expect(
      (await alicia.client.get(`/api/tickets/${ticket.id}/attachments/${fileId}`)).status,
    ).toBe(404);

    // The who-sees-what matrix for the note and its file.
    for (const [who, client, detail, file] of [
      ['support', support.client, 200, 200],
      ['admin', admin.client, 200, 200],
      ['finance', finance.client, 403, 403],
    ] as const) {
      const res = await client.get(`/api/admin/tickets/${ticket.id}`);
      expect(res.status, who).toBe(detail);
      if (detail === 200) expect(await res.text(), who).toContain('NOTA-SECRETA');
      const dl = await client.get(`/api/admin/tickets/${ticket.id}/attachments/${fileId}`);
      expect(dl.status, who).toBe(file);
    }
    for (const client of [alicia.client, bruno.client]) {
      expect((await client.get(`/api/admin/tickets/${ticket.id}`)).status).toBe(403);
    }

    expect((await notifyJobs(ticket.id)).map((j) => j.data.kind)).toEqual(['ticket.new']);
    expect(await auditActions(ticket.id)).toEqual(['ticket.note']);
    // Nothing mailed about this ticket (the note is the only message since it was opened).
    await new Promise((r) => setTimeout(r, 500));
    const aboutIt = (await mailsTo(alicia.email)).filter(
      (m) => m.subject.includes(`#${ticket.number}`) || m.text.includes('NOTA-SECRETA'),
    );
    expect(aboutIt).toEqual([]);
  });

  it('shows a customer only their own tickets: another’s answers 404 everywhere', async () => {
    const ticket = await open(alicia.client, { subject: 'Solo mío' });
    const detail = await dto(
      TicketDetailSchema,
      await alicia.client.get(`/api/tickets/${ticket.id}`),
      200,
    );
    const brunoList = await dto(TicketListSchema, await bruno.client.get('/api/tickets'), 200);
    expect(brunoList.items.map((i) => i.id)).not.toContain(ticket.id);
    for (const [method, url, body] of [
      ['GET', `/api/tickets/${ticket.id}`, undefined],
      ['POST', `/api/tickets/${ticket.id}/messages`, { body: 'Hola' }],
      ['POST', `/api/tickets/${ticket.id}/close`, undefined],
      ['POST', `/api/tickets/${ticket.id}/reopen`, undefined],
    ] as const) {
      const res = await bruno.client.request(method, url, body);
      expect(res.status, `${method} ${url}`).toBe(404);
    }
    // Staff acting as customers see no one else's tickets on the customer routes either.
    expect((await support.client.get(`/api/tickets/${ticket.id}`)).status).toBe(404);
    expect(detail.messages).toHaveLength(1);
  });

  it('lets the customer close and reopen; a reply to a closed ticket is refused with 409', async () => {
    const ticket = await open(alicia.client, { subject: 'Cerrar y reabrir' });
    const closed = await dto(
      TicketDetailSchema,
      await alicia.client.post(`/api/tickets/${ticket.id}/close`),
      200,
    );
    expect(closed.state).toBe('closed');
    expect(closed.closedAt).toEqual(expect.any(String));
    expect((await alicia.client.post(`/api/tickets/${ticket.id}/close`)).status).toBe(409);
    const refused = await alicia.client.post(`/api/tickets/${ticket.id}/messages`, {
      body: 'Una cosa más',
    });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toMatch(/Reábrelo/);
    const reopened = await dto(
      TicketDetailSchema,
      await alicia.client.post(`/api/tickets/${ticket.id}/reopen`),
      200,
    );
    expect(reopened).toMatchObject({ state: 'open', closedAt: null });
    expect((await alicia.client.post(`/api/tickets/${ticket.id}/reopen`)).status).toBe(409);
    await json(
      await alicia.client.post(`/api/tickets/${ticket.id}/messages`, { body: 'Una cosa más' }),
      201,
    );
  });

  it('staff change state and assignee (audited); only desk staff can be assigned', async () => {
    const ticket = await open(alicia.client, { subject: 'Asignación' });
    // Who can be assigned: the desk's staff, never finance or customers.
    const assignees = await json<{ items: { id: string; name: string }[] }>(
      await support.client.get('/api/admin/tickets/assignees'),
      200,
    );
    const assigneeIds = assignees.items.map((i) => i.id);
    expect(assigneeIds).toEqual(expect.arrayContaining([admin.id, support.id]));
    expect(assigneeIds).not.toContain(finance.id);
    expect(assigneeIds).not.toContain(alicia.id);
    expect((await finance.client.get('/api/admin/tickets/assignees')).status).toBe(403);
    const refused = await admin.client.patch(`/api/admin/tickets/${ticket.id}`, {
      assigneeId: finance.id,
    });
    expect(refused.status).toBe(400);
    expect(
      ((await refused.json()) as { fields: Record<string, string> }).fields.assigneeId,
    ).toMatch(/equipo de soporte/);
    const updated = await dto(
      StaffTicketSummarySchema,
      await admin.client.patch(`/api/admin/tickets/${ticket.id}`, {
        state: 'cerrado',
        assigneeId: admin.id,
      }),
      200,
    );
    expect(updated).toMatchObject({
      state: 'closed',
      assignee: { id: admin.id, name: 'Administradora' },
      resolutionSeconds: anyNumber,
    });
    const back = await dto(
      StaffTicketSummarySchema,
      await admin.client.patch(`/api/admin/tickets/${ticket.id}`, {
        state: 'open',
        assigneeId: null,
      }),
      200,
    );
    expect(back).toMatchObject({ state: 'open', assignee: null, closedAt: null });
    expect(await auditActions(ticket.id)).toEqual(['ticket.update', 'ticket.update']);
    expect(
      (await finance.client.patch(`/api/admin/tickets/${ticket.id}`, { state: 'closed' })).status,
    ).toBe(403);
  });

  it('filters the staff list by state, category, assignee, customer, order and text', async () => {
    const linked = await open(bruno.client, {
      subject: 'Filtro por orden',
      category: 'api',
      orderIds: [brunoOrder.id],
    });
    await json(
      await support.client.patch(`/api/admin/tickets/${linked.id}`, { assigneeId: support.id }),
      200,
    );
    const ids = async (query: string) =>
      (
        await dto(
          StaffTicketListSchema,
          await support.client.get(`/api/admin/tickets?${query}`),
          200,
        )
      ).items.map((i) => i.id);
    expect(await ids(`order=${brunoOrder.number}`)).toEqual([linked.id]);
    expect(await ids(`order=${brunoOrder.id}`)).toEqual([linked.id]);
    expect(await ids(`customer=${encodeURIComponent(bruno.email)}`)).toEqual([linked.id]);
    expect(await ids('category=api')).toEqual([linked.id]);
    expect(await ids('assignee=me')).toContain(linked.id);
    expect(await ids('assignee=none')).not.toContain(linked.id);
    expect(await ids(`q=${encodeURIComponent('filtro por')}`)).toEqual([linked.id]);
    expect(await ids('state=abierto')).toContain(linked.id);
    expect(await ids('state=closed')).not.toContain(linked.id);
    // Empty filters (a form's blank fields) are no filter; a wrong one is a Spanish 400.
    expect(await ids('state=&category=&assignee=&customer=&order=&q=&cursor=&limit=')).toContain(
      linked.id,
    );
    const wrong = await support.client.get('/api/admin/tickets?state=perdido');
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { fields: Record<string, string> }).fields.state).toMatch(
      /El estado no es válido/,
    );
    expect((await alicia.client.get('/api/tickets?state=&cursor=')).status).toBe(200);
    // Pages: a limit of 1 walks the list by cursor without repeats.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: StaffTicketList = await dto(
        StaffTicketListSchema,
        await support.client.get(`/api/admin/tickets?limit=2${cursor ? `&cursor=${cursor}` : ''}`),
        200,
      );
      seen.push(...page.items.map((i) => i.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe((await ids('limit=100')).length);
  });

  it('closes in bulk (audited), and counts open tickets in the overview for the desk only', async () => {
    const a = await open(alicia.client, { subject: 'Bulk uno' });
    const b = await open(alicia.client, { subject: 'Bulk dos' });
    const overview = await dto(
      AdminOverviewSchema,
      await support.client.get('/api/admin/overview'),
      200,
    );
    expect(overview.openTickets).toEqual(expect.any(Number));
    expect(overview.openTickets).toBeGreaterThanOrEqual(2);
    expect((await dto(MeSchema, await support.client.get('/api/me'), 200)).unreadTickets).toBe(
      overview.openTickets,
    );
    expect(
      (await dto(AdminOverviewSchema, await finance.client.get('/api/admin/overview'), 200))
        .openTickets,
    ).toBeNull();
    expect(
      (await dto(MeSchema, await finance.client.get('/api/me'), 200)).unreadTickets,
    ).toBeNull();

    const result = await json<{ closed: number; ids: string[] }>(
      await support.client.post('/api/admin/tickets/bulk-close', { ids: [a.id, b.id] }),
      200,
    );
    expect(result.closed).toBe(2);
    expect(result.ids.sort()).toEqual([a.id, b.id].sort());
    expect(
      await json(await support.client.post('/api/admin/tickets/bulk-close', { ids: [a.id] }), 200),
    ).toEqual({ closed: 0, ids: [] });
    expect(
      (await dto(AdminOverviewSchema, await support.client.get('/api/admin/overview'), 200))
        .openTickets,
    ).toBe(overview.openTickets! - 2);
    expect(await auditActions(a.id)).toEqual(['ticket.bulk_close']);
    expect(
      (await finance.client.post('/api/admin/tickets/bulk-close', { ids: [a.id] })).status,
    ).toBe(403);
  });

  it('closes answered and waiting tickets idle for 7 days after the last staff answer, with a system message', async () => {
    const idle = await open(alicia.client, { subject: 'Inactivo' });
    const recent = await open(alicia.client, { subject: 'Reciente' });
    const untouched = await open(alicia.client, { subject: 'Sin respuesta' });
    for (const ticket of [idle, recent])
      await json(
        await support.client.post(`/api/admin/tickets/${ticket.id}/messages`, {
          body: '¿Sigue pasando?',
          state: ticket === idle ? 'waiting_customer' : 'answered',
        }),
        201,
      );
    await t.database.db.execute(
      sql`UPDATE ticket SET last_staff_message_at = now() - interval '8 days' WHERE id = ${idle.id}`,
    );
    await t.database.db.execute(
      sql`UPDATE ticket SET last_staff_message_at = now() - interval '3 days' WHERE id = ${recent.id}`,
    );
    await t.database.db.execute(
      sql`UPDATE ticket SET created_at = now() - interval '30 days', last_message_at = now() - interval '30 days' WHERE id = ${untouched.id}`,
    );
    expect(await autoCloseTickets(t.database.db)).toBe(1);
    const closed = await dto(
      TicketDetailSchema,
      await alicia.client.get(`/api/tickets/${idle.id}`),
      200,
    );
    expect(closed.state).toBe('closed');
    expect(closed.messages.at(-1)).toMatchObject({
      authorKind: 'system',
      body: AUTO_CLOSE_MESSAGE,
      internal: false,
    });
    expect(AUTO_CLOSE_MESSAGE).toContain('7 días');
    const stillOpen = await dto(
      TicketDetailSchema,
      await alicia.client.get(`/api/tickets/${recent.id}`),
      200,
    );
    expect(stillOpen.state).toBe('answered');
    expect(
      (await dto(TicketDetailSchema, await alicia.client.get(`/api/tickets/${untouched.id}`), 200))
        .state,
    ).toBe('open');
    expect(await auditActions(idle.id)).toContain('ticket.auto_close');
    // Run again: nothing left to close.
    expect(await autoCloseTickets(t.database.db)).toBe(0);
  });

  it('limits new tickets per account and hour: 429 with Retry-After', async () => {
    const limited = t.appWith({ env: { ...t.env, TICKET_RATE_LIMIT_PER_HOUR: 2 } });
    const carla = await customer('Carla Límite');
    const body = JSON.stringify({ subject: 'Límite', category: 'other', message: 'Hola' });
    const statuses: number[] = [];
    let last: Response | null = null;
    for (let i = 0; i < 3; i++) {
      last = await rawRequest(t, {
        method: 'POST',
        url: '/api/tickets',
        as: carla.client,
        headers: { 'Content-Type': 'application/json' },
        body,
        app: limited,
      });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([201, 201, 429]);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await last!.json()) as { message: string }).message).toMatch(/demasiados tickets/);
  });

  it('takes an API key (customers who automate)', async () => {
    const { key } = await json<{ key: string }>(
      await alicia.client.post('/api/keys', { name: 'Integración soporte' }),
      201,
    );
    const res = await rawRequest(t, {
      method: 'POST',
      url: '/api/tickets',
      as: null,
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
      body: JSON.stringify({ subject: 'Desde la API', category: 'API', message: 'Hola' }),
    });
    const created = await dto(CreatedTicketSchema, res, 201);
    const list = await rawRequest(t, {
      method: 'GET',
      url: '/api/tickets',
      as: null,
      headers: { Authorization: `Bearer ${key}` },
    });
    expect((await dto(TicketListSchema, list, 200)).items.map((i) => i.id)).toContain(created.id);
  });

  it('exports the customer’s tickets with their data, and deletes them with the account', async () => {
    const { client, email } = await registerVerified(t, 'Dora Borrar');
    const id = await userIdOf(t, email);
    const ticket = await open(client, { subject: 'Mis datos' });
    await json(
      await support.client.post(`/api/admin/tickets/${ticket.id}/messages`, {
        body: 'Nota solo para el equipo (EXPORT-SECRETA).',
        internal: true,
      }),
      201,
    );
    const exportRes = await client.get('/api/me/export');
    const exportText = await exportRes.text();
    expect(exportRes.status).toBe(200);
    expect(exportText).not.toContain('EXPORT-SECRETA');
    const exported = JSON.parse(exportText) as {
      tickets: { number: number; subject: string; messages: { from: string; body: string }[] }[];
    };
    expect(exported.tickets).toEqual([
      expect.objectContaining({
        number: ticket.number,
        subject: 'Mis datos',
        messages: [
          expect.objectContaining({ from: 'customer', body: 'Hola, mi orden no avanza.' }),
        ],
      }),
    ]);
    await json(
      await client.post('/api/me/delete', { password: GOOD_PASSWORD, confirm: 'ELIMINAR' }),
      200,
    );
    const left = await queryRows<{ n: number }>(
      t.database.db,
      sql`SELECT (SELECT count(*)::int FROM ticket WHERE user_id = ${id})
        + (SELECT count(*)::int FROM ticket_message WHERE ticket_id = ${ticket.id}) AS n`,
    );
    expect(Number(left[0]?.n)).toBe(0);
    expect((await support.client.get(`/api/admin/tickets/${ticket.id}`)).status).toBe(404);
  });

  it('serves saved ticket replies to support (snippet kind ticket_reply)', async () => {
    await json(
      await support.client.post('/api/admin/snippets', {
        kind: 'ticket_reply',
        title: 'Saludo',
        body: 'Hola, gracias por escribirnos. Ya estamos revisando tu caso.',
      }),
      201,
    );
    const list = await json<{ items: { kind: string; title: string }[] }>(
      await support.client.get('/api/admin/snippets?kind=ticket_reply'),
      200,
    );
    expect(list.items.map((i) => [i.kind, i.title])).toEqual([['ticket_reply', 'Saludo']]);
  });
});
