// Announcements end to end on both databases: the admin API (validation, audit, roles), what
// each customer sees (audience by price group, the default group, the window, read marks) and
// the e-mail in batches through the job queue (each customer once, even when a batch runs twice
// or side by side; staff never; a PATCH turning it off stops it).
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminAnnouncementDto, AnnouncementDto } from '../../../shared/schemas/announcements';
import type { PriceGroupDto } from '../../../shared/schemas/price-groups';
import { queryRows } from '../../db/client';
import { user } from '../../db/schema/auth';
import { auditLog } from '../../db/schema/payments';
import {
  createTestApp,
  registerVerified,
  signInAdmin,
  signInStaff,
  userIdOf,
  type TestApp,
  type TestClient,
} from '../../../tests/setup/test-app';
import { dbTargets } from '../../../tests/setup/test-db';
import { sendAnnouncementEmailBatch } from './announcements.service';

async function json<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return JSON.parse(text) as T;
}

const HOUR = 3600_000;
const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

describe.each(dbTargets())('announcements on %s', (target) => {
  let t: TestApp;
  let admin: TestClient;
  let support: Awaited<ReturnType<typeof signInStaff>>;
  let finance: TestClient;
  type Customer = { client: TestClient; email: string; id: string };
  let inGold: Customer; // group Oro
  let inSilver: Customer; // group Plata
  let noGroup: Customer; // no group: the default group
  let gold: PriceGroupDto;
  let silver: PriceGroupDto;
  let defaultGroup: PriceGroupDto;

  async function customer(name: string): Promise<Customer> {
    const r = await registerVerified(t, name);
    return { ...r, id: await userIdOf(t, r.email) };
  }

  async function group(name: string): Promise<PriceGroupDto> {
    return json<PriceGroupDto>(
      await admin.post('/api/admin/price-groups', { name, discountPercent: '5' }),
      201,
    );
  }

  async function putInGroup(userId: string, groupId: string | null) {
    await json(
      await admin.request('PUT', `/api/admin/users/${userId}/price-group`, { groupId }),
      200,
    );
  }

  async function publish(body: Record<string, unknown>): Promise<AdminAnnouncementDto> {
    return json<AdminAnnouncementDto>(
      await admin.post('/api/admin/announcements', { body: 'Texto del anuncio.', ...body }),
      201,
    );
  }

  async function seen(c: Customer | TestClient): Promise<AnnouncementDto[]> {
    const client = 'client' in c ? c.client : c;
    return (await json<{ items: AnnouncementDto[] }>(await client.get('/api/announcements'), 200))
      .items;
  }

  async function mailsWithSubject(subject: string) {
    return (await t.outbox()).filter((m) => m.subject === subject);
  }

  async function waitForMails(subject: string, n: number, timeoutMs = 8000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = await mailsWithSubject(subject);
      if (found.length >= n || Date.now() > deadline) return found;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  beforeAll(async () => {
    t = await createTestApp(target);
    admin = (await signInAdmin(t)).client;
    support = await signInStaff(t, 'support');
    finance = (await signInStaff(t, 'finance')).client;
    inGold = await customer('Olga Oro');
    inSilver = await customer('Pablo Plata');
    noGroup = await customer('Nora Sin Grupo');
    gold = await group('Oro');
    silver = await group('Plata');
    const groups = await json<{ items: PriceGroupDto[] }>(
      await admin.get('/api/admin/price-groups'),
      200,
    );
    defaultGroup = groups.items.find((g) => g.isDefault)!;
    await putInGroup(inGold.id, gold.id);
    await putInGroup(inSilver.id, silver.id);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('publishes, lists, changes and deletes, each audited', async () => {
    const created = await publish({
      title: 'Mantenimiento del sábado',
      body: 'El **sábado** de 2:00 a 4:00 no se procesan órdenes.',
      pinned: true,
    });
    expect(created).toMatchObject({
      title: 'Mantenimiento del sábado',
      audience: {},
      groups: [],
      pinned: true,
      endsAt: null,
      email: false,
      state: 'active',
      emailsSent: 0,
    });
    expect(Math.abs(new Date(created.startsAt).getTime() - Date.now())).toBeLessThan(60_000);

    const list = await json<{ items: AdminAnnouncementDto[] }>(
      await admin.get('/api/admin/announcements'),
      200,
    );
    expect(list.items.map((a) => a.id)).toContain(created.id);

    const changed = await json<AdminAnnouncementDto>(
      await admin.patch(`/api/admin/announcements/${created.id}`, {
        title: 'Mantenimiento del domingo',
        audience: { groupIds: [gold.id] },
        endsAt: iso(2 * HOUR),
      }),
      200,
    );
    expect(changed).toMatchObject({
      title: 'Mantenimiento del domingo',
      body: created.body,
      audience: { groupIds: [gold.id] },
      groups: [{ id: gold.id, name: 'Oro' }],
      pinned: true,
    });
    expect(changed.endsAt).not.toBeNull();

    expect(
      await json(await admin.request('DELETE', `/api/admin/announcements/${created.id}`), 200),
    ).toEqual({ deleted: true });
    const after = await json<{ items: AdminAnnouncementDto[] }>(
      await admin.get('/api/admin/announcements'),
      200,
    );
    expect(after.items.map((a) => a.id)).not.toContain(created.id);
    await json(await admin.request('DELETE', `/api/admin/announcements/${created.id}`), 404);
    await json(await admin.patch(`/api/admin/announcements/${created.id}`, { pinned: false }), 404);

    const audit = await t.database.db
      .select({ action: auditLog.action, actorRole: auditLog.actorRole, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'announcement'), eq(auditLog.targetId, created.id)));
    expect(audit.map((a) => a.action).sort()).toEqual([
      'announcement.create',
      'announcement.delete',
      'announcement.update',
    ]);
    expect(audit.every((a) => a.actorRole === 'admin')).toBe(true);
  });

  it('refuses invalid announcements with Spanish messages per field', async () => {
    const bad = await json<{ code: string; fields: Record<string, string> }>(
      await admin.post('/api/admin/announcements', {
        title: 'x'.repeat(121),
        body: 'y'.repeat(2001),
        audience: { groupIds: ['no-es-un-uuid'] },
        startsAt: iso(2 * HOUR),
        endsAt: iso(HOUR),
      }),
      400,
    );
    expect(bad.code).toBe('VALIDATION_FAILED');
    expect(bad.fields).toMatchObject({
      title: 'El título admite hasta 120 caracteres.',
      body: 'El texto admite hasta 2000 caracteres.',
      audience: 'El grupo de precios no es válido.',
      endsAt: 'El fin debe ser posterior al inicio.',
    });
    const empty = await json<{ fields: Record<string, string> }>(
      await admin.post('/api/admin/announcements', { title: '  ', body: '' }),
      400,
    );
    expect(empty.fields).toMatchObject({
      title: 'Escribe el título.',
      body: 'Escribe el texto del anuncio.',
    });
    const extra = await admin.post('/api/admin/announcements', {
      title: 'a',
      body: 'b',
      html: '<b>x</b>',
    });
    expect(extra.status).toBe(400);
    // A group that does not exist.
    const gone = await json<{ fields: Record<string, string> }>(
      await admin.post('/api/admin/announcements', {
        title: 'Para nadie',
        body: 'x',
        audience: { groupIds: ['00000000-0000-4000-8000-000000000000'] },
      }),
      400,
    );
    expect(gone.fields.audience).toBe('Uno de los grupos de precios ya no existe.');
    // The end checked against the saved start.
    const later = await publish({ title: 'Más tarde', startsAt: iso(3 * HOUR) });
    const refused = await json<{ fields: Record<string, string> }>(
      await admin.patch(`/api/admin/announcements/${later.id}`, { endsAt: iso(HOUR) }),
      400,
    );
    expect(refused.fields.endsAt).toBe('El fin debe ser posterior al inicio.');
    await admin.request('DELETE', `/api/admin/announcements/${later.id}`);
  });

  it('lets only admins manage announcements', async () => {
    const one = await publish({ title: 'Solo administración' });
    for (const c of [support.client, finance, inGold.client]) {
      expect((await c.get('/api/admin/announcements')).status).toBe(403);
      expect((await c.post('/api/admin/announcements', { title: 'a', body: 'b' })).status).toBe(
        403,
      );
      expect((await c.patch(`/api/admin/announcements/${one.id}`, { pinned: true })).status).toBe(
        403,
      );
      expect((await c.request('DELETE', `/api/admin/announcements/${one.id}`)).status).toBe(403);
    }
    await admin.request('DELETE', `/api/admin/announcements/${one.id}`);
  });

  it('shows each customer the announcements of their audience, the default group included', async () => {
    const all = await publish({ title: 'Para todos' });
    const toGold = await publish({ title: 'Para Oro', audience: { groupIds: [gold.id] } });
    const toDefault = await publish({
      title: 'Para el grupo predeterminado',
      audience: { groupIds: [defaultGroup.id] },
    });
    const toBoth = await publish({
      title: 'Para Oro y Plata',
      audience: { groupIds: [gold.id, silver.id] },
    });
    const titles = async (c: Customer) => (await seen(c)).map((a) => a.title);
    expect(await titles(inGold)).toEqual(
      expect.arrayContaining(['Para todos', 'Para Oro', 'Para Oro y Plata']),
    );
    expect(await titles(inGold)).not.toContain('Para el grupo predeterminado');
    expect(await titles(inSilver)).toEqual(
      expect.arrayContaining(['Para todos', 'Para Oro y Plata']),
    );
    expect(await titles(inSilver)).not.toContain('Para Oro');
    expect(await titles(noGroup)).toEqual(
      expect.arrayContaining(['Para todos', 'Para el grupo predeterminado']),
    );
    expect(await titles(noGroup)).not.toContain('Para Oro y Plata');
    // Staff are no audience.
    expect(await seen(support.client)).toEqual([]);
    // A customer moved out of the default group stops seeing its announcements.
    await putInGroup(noGroup.id, silver.id);
    expect(await titles(noGroup)).not.toContain('Para el grupo predeterminado');
    await putInGroup(noGroup.id, null);
    expect(await titles(noGroup)).toContain('Para el grupo predeterminado');
    // Deleting its only group leaves an announcement for nobody (never for everyone).
    const temporary = await group('Temporal');
    const toTemporary = await publish({
      title: 'Para Temporal',
      audience: { groupIds: [temporary.id] },
    });
    await json(await admin.request('DELETE', `/api/admin/price-groups/${temporary.id}`), 200);
    for (const c of [inGold, inSilver, noGroup])
      expect(await titles(c)).not.toContain('Para Temporal');
    for (const a of [all, toGold, toDefault, toBoth, toTemporary])
      await admin.request('DELETE', `/api/admin/announcements/${a.id}`);
  });

  it('shows only what is on now, pinned first then the newest, with read marks', async () => {
    const older = await publish({ title: 'Anterior', startsAt: iso(-2 * HOUR) });
    const newer = await publish({ title: 'Reciente', startsAt: iso(-HOUR) });
    const pinned = await publish({ title: 'Fijado', pinned: true, startsAt: iso(-3 * HOUR) });
    const future = await publish({ title: 'Futuro', startsAt: iso(HOUR) });
    const ended = await publish({
      title: 'Terminado',
      startsAt: iso(-3 * HOUR),
      endsAt: iso(-HOUR),
    });
    const deleted = await publish({ title: 'Borrado' });
    await admin.request('DELETE', `/api/admin/announcements/${deleted.id}`);
    const toGold = await publish({ title: 'Solo Oro', audience: { groupIds: [gold.id] } });

    const list = await seen(inSilver);
    expect(list.map((a) => a.title)).toEqual(['Fijado', 'Reciente', 'Anterior']);
    expect(list.every((a) => !a.read)).toBe(true);
    const states = (
      await json<{ items: AdminAnnouncementDto[] }>(
        await admin.get('/api/admin/announcements'),
        200,
      )
    ).items;
    expect(states.find((a) => a.id === future.id)?.state).toBe('scheduled');
    expect(states.find((a) => a.id === ended.id)?.state).toBe('ended');
    expect(states.find((a) => a.id === newer.id)?.state).toBe('active');

    const read = await json<AnnouncementDto>(
      await inSilver.client.post(`/api/announcements/${newer.id}/read`),
      200,
    );
    expect(read).toMatchObject({ id: newer.id, read: true });
    // Idempotent.
    await json(await inSilver.client.post(`/api/announcements/${newer.id}/read`), 200);
    expect((await seen(inSilver)).map((a) => [a.title, a.read])).toEqual([
      ['Fijado', false],
      ['Reciente', true],
      ['Anterior', false],
    ]);
    // Someone else's read mark is theirs alone.
    expect((await seen(noGroup)).find((a) => a.id === newer.id)?.read).toBe(false);
    // 404 for what this customer cannot see.
    for (const id of [
      future.id,
      ended.id,
      deleted.id,
      toGold.id,
      '00000000-0000-4000-8000-000000000001',
    ])
      await json(await inSilver.client.post(`/api/announcements/${id}/read`), 404);
    await json(await support.client.post(`/api/announcements/${newer.id}/read`), 404);
    for (const a of [older, newer, pinned, future, ended, toGold])
      await admin.request('DELETE', `/api/admin/announcements/${a.id}`);
  });

  describe('e-mail', () => {
    let batchGroup: PriceGroupDto;
    const members: Customer[] = [];

    beforeAll(async () => {
      batchGroup = await group('Lote');
      for (let i = 0; i < 5; i += 1) {
        const c = await customer(`Cliente Lote ${i}`);
        await putInGroup(c.id, batchGroup.id);
        members.push(c);
      }
      // Staff put in the group, and a customer who never verified: neither gets it.
      await putInGroup(support.id, batchGroup.id);
      const unverified = t.client();
      const res = await unverified.post('/api/auth/sign-up/email', {
        name: 'Sin Verificar',
        email: `sin.verificar.${Date.now()}@example.com`,
        password: 'Cielo-Azul-2026!',
      });
      expect(res.status).toBe(200);
      const [row] = await t.database.db
        .select({ id: user.id })
        .from(user)
        .where(eq(user.name, 'Sin Verificar'));
      await putInGroup(row!.id, batchGroup.id);
    }, 120_000);

    it('queues one e-mail per customer in batches, once even when a batch runs twice', async () => {
      const created = await publish({
        title: 'Nuevos precios para Lote',
        body: 'Desde hoy, **10 %** menos. <script>alert(1)</script> [Ver precios](https://ejemplo.com/precios)',
        audience: { groupIds: [batchGroup.id] },
        email: true,
      });
      // Batches of 2, each run twice side by side, until the audience is walked.
      let rounds = 0;
      let total = 0;
      for (;;) {
        const results = await Promise.all([
          sendAnnouncementEmailBatch(t.deps, created.id, 2),
          sendAnnouncementEmailBatch(t.deps, created.id, 2),
        ]);
        total += results.reduce((n, r) => n + r.queued, 0);
        rounds += 1;
        if (!results.some((r) => r.more) || rounds > 10) break;
      }
      expect(total).toBe(5);
      // Again, later: nothing more.
      expect(await sendAnnouncementEmailBatch(t.deps, created.id, 2)).toEqual({
        queued: 0,
        more: false,
      });
      const subject = 'Nuevos precios para Lote · Cometa';
      const mails = await waitForMails(subject, 5);
      await new Promise((r) => setTimeout(r, 500));
      const final = await mailsWithSubject(subject);
      expect(final).toHaveLength(5);
      expect(final.map((m) => m.to).sort()).toEqual(members.map((m) => m.email).sort());
      expect(mails[0]?.text).toContain(
        'Desde hoy, 10 % menos. <script>alert(1)</script> Ver precios (https://ejemplo.com/precios)',
      );
      expect(mails[0]?.links).toContain('https://ejemplo.com/precios');
      const listed = (
        await json<{ items: AdminAnnouncementDto[] }>(
          await admin.get('/api/admin/announcements'),
          200,
        )
      ).items.find((a) => a.id === created.id);
      expect(listed?.emailsSent).toBe(5);
      expect(listed?.emailDoneAt).not.toBeNull();
      await admin.request('DELETE', `/api/admin/announcements/${created.id}`);
    });

    it('walks the audience again only for a new audience or the e-mail turned back on', async () => {
      const created = await publish({
        title: 'Cambios de Lote',
        audience: { groupIds: [batchGroup.id] },
        email: true,
      });
      const walk = async () => {
        let queued = 0;
        for (let i = 0; i < 10; i += 1) {
          const r = await sendAnnouncementEmailBatch(t.deps, created.id, 2);
          queued += r.queued;
          if (!r.more) break;
        }
        return queued;
      };
      expect(await walk()).toBe(5);
      // The same audience sent again with a new title (as the edit form does): nothing new.
      await json(
        await admin.patch(`/api/admin/announcements/${created.id}`, {
          title: 'Cambios de Lote (corregido)',
          audience: { groupIds: [batchGroup.id] },
        }),
        200,
      );
      expect(await walk()).toBe(0);
      // A wider audience: only the customers not sent it yet.
      await json(
        await admin.patch(`/api/admin/announcements/${created.id}`, {
          audience: { groupIds: [batchGroup.id, gold.id] },
        }),
        200,
      );
      expect(await walk()).toBe(1);
      const subject = 'Cambios de Lote · Cometa';
      const corrected = 'Cambios de Lote (corregido) · Cometa';
      await waitForMails(corrected, 1);
      await new Promise((r) => setTimeout(r, 500));
      expect((await mailsWithSubject(subject)).length).toBe(5);
      expect((await mailsWithSubject(corrected)).map((m) => m.to)).toEqual([inGold.email]);
      await admin.request('DELETE', `/api/admin/announcements/${created.id}`);
    });

    it('respects a PATCH that turns the e-mail off before it is sent', async () => {
      const created = await publish({
        title: 'Correo cancelado',
        audience: { groupIds: [batchGroup.id] },
        startsAt: iso(HOUR),
        email: true,
      });
      await json(
        await admin.patch(`/api/admin/announcements/${created.id}`, {
          email: false,
          startsAt: iso(-60_000),
        }),
        200,
      );
      expect(await sendAnnouncementEmailBatch(t.deps, created.id, 2)).toEqual({
        queued: 0,
        more: false,
      });
      // Not started yet: nothing either.
      const scheduled = await publish({
        title: 'Correo futuro',
        audience: { groupIds: [batchGroup.id] },
        startsAt: iso(HOUR),
        email: true,
      });
      expect(await sendAnnouncementEmailBatch(t.deps, scheduled.id, 2)).toEqual({
        queued: 0,
        more: false,
      });
      for (const a of [created, scheduled])
        await admin.request('DELETE', `/api/admin/announcements/${a.id}`);
      expect(await mailsWithSubject('Correo cancelado · Cometa')).toHaveLength(0);
    });

    it('sends through the job queue when published, and at the start when scheduled', async () => {
      await t.startWorkers();
      const now = await publish({
        title: 'Aviso por correo',
        audience: { groupIds: [batchGroup.id] },
        email: true,
      });
      const soon = await publish({
        title: 'Aviso en dos segundos',
        audience: { groupIds: [batchGroup.id] },
        startsAt: iso(2000),
        email: true,
      });
      expect(await waitForMails('Aviso por correo · Cometa', 5)).toHaveLength(5);
      expect(await mailsWithSubject('Aviso en dos segundos · Cometa')).toHaveLength(0);
      expect(await waitForMails('Aviso en dos segundos · Cometa', 5, 15_000)).toHaveLength(5);
      // To everyone: every verified customer, never staff.
      const everyone = await publish({ title: 'Aviso general', email: true });
      const customers = await queryRows<{ email: string }>(
        t.database.db,
        sql`SELECT email FROM "user" WHERE role = 'customer' AND email_verified AND deleted_at IS NULL`,
      );
      const mails = await waitForMails('Aviso general · Cometa', customers.length);
      await new Promise((r) => setTimeout(r, 500));
      const final = await mailsWithSubject('Aviso general · Cometa');
      expect(final.map((m) => m.to).sort()).toEqual(customers.map((c) => c.email).sort());
      expect(final.map((m) => m.to)).not.toContain(support.email);
      expect(mails.length).toBe(customers.length);
      for (const a of [now, soon, everyone])
        await admin.request('DELETE', `/api/admin/announcements/${a.id}`);
    }, 60_000);
  });
});
