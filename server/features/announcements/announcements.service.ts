// Announcements (docs/domain.md "Announcements"): admins publish them to everyone or to chosen
// price groups; a customer sees those of their audience while they are on, and dismisses them
// one by one. The optional e-mail goes out through the job queue in batches: each customer's send
// is a row (announcement_email) claimed in the same transaction as their mail job, so retries and
// parallel instances never send it twice.
import { and, asc, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type {
  AdminAnnouncementDto,
  AnnouncementDto,
  AnnouncementInputData,
  AnnouncementPatch,
  AnnouncementState,
} from '../../../shared/schemas/announcements';
import { END_BEFORE_START_MESSAGE, endAfterStart } from '../../../shared/schemas/announcements';
import { queryRows, type Db, type Tx } from '../../db/client';
import {
  announcement,
  announcementEmail,
  announcementGroup,
  announcementRead,
} from '../../db/schema/announcements';
import { priceGroup } from '../../db/schema/prices';
import type { Env } from '../../env';
import { insertInTx, sendInTx, type JobQueue } from '../../jobs/queue';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { recordAudit } from '../audit/audit.service';
import { announcementMail } from './announcements.emails';

const NOT_FOUND = 'El anuncio no existe.';
/** Customers per e-mail job. */
export const EMAIL_BATCH = 200;

type Actor = { id: string; ip: string | null };
type Row = typeof announcement.$inferSelect;
export type AnnouncementDeps = { db: Db; jobs: JobQueue; env: Env; logger: Logger };

export function stateOf(
  row: { startsAt: Date; endsAt: Date | null },
  now = new Date(),
): AnnouncementState {
  if (row.startsAt.getTime() > now.getTime()) return 'scheduled';
  if (row.endsAt && row.endsAt.getTime() <= now.getTime()) return 'ended';
  return 'active';
}

async function adminDtos(db: Db | Tx, rows: Row[]): Promise<AdminAnnouncementDto[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const groups = await db
    .select({
      announcementId: announcementGroup.announcementId,
      id: priceGroup.id,
      name: priceGroup.name,
    })
    .from(announcementGroup)
    .innerJoin(priceGroup, eq(priceGroup.id, announcementGroup.groupId))
    .where(inArray(announcementGroup.announcementId, ids))
    .orderBy(asc(priceGroup.name));
  const sent = await db
    .select({ announcementId: announcementEmail.announcementId, n: count() })
    .from(announcementEmail)
    .where(inArray(announcementEmail.announcementId, ids))
    .groupBy(announcementEmail.announcementId);
  const sentBy = new Map(sent.map((s) => [s.announcementId, Number(s.n)]));
  const now = new Date();
  return rows.map((r) => {
    const mine = groups
      .filter((g) => g.announcementId === r.id)
      .map((g) => ({ id: g.id, name: g.name }));
    return {
      id: r.id,
      title: r.title,
      body: r.body,
      audience: r.forEveryone ? {} : { groupIds: mine.map((g) => g.id) },
      groups: r.forEveryone ? [] : mine,
      pinned: r.pinned,
      startsAt: r.startsAt.toISOString(),
      endsAt: r.endsAt?.toISOString() ?? null,
      email: r.email,
      state: stateOf(r, now),
      emailsSent: sentBy.get(r.id) ?? 0,
      emailDoneAt: r.emailDoneAt?.toISOString() ?? null,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    };
  });
}

/** What the audit log keeps of an announcement. */
function auditView(dto: AdminAnnouncementDto) {
  return {
    title: dto.title,
    body: dto.body,
    audience: dto.audience,
    pinned: dto.pinned,
    startsAt: dto.startsAt,
    endsAt: dto.endsAt,
    email: dto.email,
  };
}

/** Every announcement not deleted, newest start first. */
export async function listAdminAnnouncements(db: Db): Promise<AdminAnnouncementDto[]> {
  const rows = await db
    .select()
    .from(announcement)
    .where(isNull(announcement.deletedAt))
    .orderBy(desc(announcement.startsAt), desc(announcement.createdAt));
  return adminDtos(db, rows);
}

async function checkGroups(tx: Tx, groupIds: string[]): Promise<void> {
  const found = await tx
    .select({ id: priceGroup.id })
    .from(priceGroup)
    .where(inArray(priceGroup.id, groupIds));
  if (found.length !== new Set(groupIds).size) {
    const message = 'Uno de los grupos de precios ya no existe.';
    throw new AppError('VALIDATION_FAILED', message, { audience: message });
  }
}

async function setGroups(tx: Tx, id: string, groupIds: string[] | undefined): Promise<void> {
  await tx.delete(announcementGroup).where(eq(announcementGroup.announcementId, id));
  const unique = [...new Set(groupIds ?? [])];
  if (unique.length === 0) return;
  await checkGroups(tx, unique);
  await tx
    .insert(announcementGroup)
    .values(unique.map((groupId) => ({ announcementId: id, groupId })));
}

/**
 * The e-mail's first batch, in the transaction that published it: now when it has started,
 * otherwise at its start (the periodic sweep starts it too, should this job be lost).
 */
async function scheduleEmail(tx: Tx, row: Row): Promise<boolean> {
  if (!row.email || row.deletedAt || row.emailDoneAt) return false;
  const wait = Math.ceil((row.startsAt.getTime() - Date.now()) / 1000);
  await sendInTx(
    tx,
    'announcement-email',
    { announcementId: row.id },
    {
      ...(wait > 0 ? { startAfterSeconds: wait } : {}),
    },
  );
  return wait <= 0;
}

async function readOne(tx: Db | Tx, id: string): Promise<AdminAnnouncementDto> {
  const [row] = await tx.select().from(announcement).where(eq(announcement.id, id));
  if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
  const [dto] = await adminDtos(tx, [row]);
  if (!dto) throw new AppError('INTERNAL');
  return dto;
}

export async function createAnnouncement(
  deps: Pick<AnnouncementDeps, 'db' | 'jobs'>,
  actor: Actor,
  input: AnnouncementInputData,
): Promise<AdminAnnouncementDto> {
  const startsAt = input.startsAt ? new Date(input.startsAt) : new Date();
  const endsAt = input.endsAt ? new Date(input.endsAt) : null;
  if (endsAt && !endAfterStart(startsAt, endsAt))
    throw new AppError('VALIDATION_FAILED', END_BEFORE_START_MESSAGE, {
      endsAt: END_BEFORE_START_MESSAGE,
    });
  let wake = false;
  const dto = await deps.db.transaction(async (tx) => {
    const groupIds = input.audience.groupIds;
    const [row] = await tx
      .insert(announcement)
      .values({
        title: input.title,
        body: input.body,
        forEveryone: groupIds === undefined,
        pinned: input.pinned,
        startsAt,
        endsAt,
        email: input.email,
        createdBy: actor.id,
      })
      .returning();
    if (!row) throw new AppError('INTERNAL');
    await setGroups(tx, row.id, groupIds);
    wake = await scheduleEmail(tx, row);
    const created = await readOne(tx, row.id);
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'announcement.create',
      targetType: 'announcement',
      targetId: row.id,
      after: auditView(created),
      ipAddress: actor.ip,
    });
    return created;
  });
  if (wake) deps.jobs.wake('announcement-email');
  return dto;
}

export async function updateAnnouncement(
  deps: Pick<AnnouncementDeps, 'db' | 'jobs'>,
  actor: Actor,
  id: string,
  patch: AnnouncementPatch,
): Promise<AdminAnnouncementDto> {
  let wake = false;
  const dto = await deps.db.transaction(async (tx) => {
    // Locked: an e-mail batch running now waits, then reads the change (e-mail turned off).
    const [found] = await tx
      .select()
      .from(announcement)
      .where(and(eq(announcement.id, id), isNull(announcement.deletedAt)))
      .for('update');
    if (!found) throw new AppError('NOT_FOUND', NOT_FOUND);
    const before = await readOne(tx, id);
    const startsAt = patch.startsAt ? new Date(patch.startsAt) : found.startsAt;
    const endsAt =
      patch.endsAt === undefined
        ? found.endsAt
        : patch.endsAt === null
          ? null
          : new Date(patch.endsAt);
    if (endsAt && !endAfterStart(startsAt, endsAt))
      throw new AppError('VALIDATION_FAILED', END_BEFORE_START_MESSAGE, {
        endsAt: END_BEFORE_START_MESSAGE,
      });
    const email = patch.email ?? found.email;
    const audienceKey = (ids: string[] | undefined) =>
      ids === undefined ? '*' : [...new Set(ids)].sort().join();
    const audienceChanged =
      patch.audience !== undefined &&
      audienceKey(patch.audience.groupIds) !== audienceKey(before.audience.groupIds);
    // A new audience, or the e-mail turned back on: it walks its audience again (those already
    // sent it are skipped). A new start only needs a job at that start.
    const resend = email && (audienceChanged || (patch.email === true && !found.email));
    const schedule = resend || (email && startsAt.getTime() !== found.startsAt.getTime());
    const [row] = await tx
      .update(announcement)
      .set({
        ...(patch.title !== undefined ? { title: patch.title } : {}),
        ...(patch.body !== undefined ? { body: patch.body } : {}),
        ...(patch.pinned !== undefined ? { pinned: patch.pinned } : {}),
        ...(patch.audience !== undefined
          ? { forEveryone: patch.audience.groupIds === undefined }
          : {}),
        startsAt,
        endsAt,
        email,
        ...(resend ? { emailDoneAt: null } : {}),
        updatedAt: new Date(),
      })
      .where(eq(announcement.id, id))
      .returning();
    if (!row) throw new AppError('NOT_FOUND', NOT_FOUND);
    if (patch.audience !== undefined) await setGroups(tx, id, patch.audience.groupIds);
    if (schedule) wake = await scheduleEmail(tx, row);
    const after = await readOne(tx, id);
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'announcement.update',
      targetType: 'announcement',
      targetId: id,
      before: auditView(before),
      after: auditView(after),
      ipAddress: actor.ip,
    });
    return after;
  });
  if (wake) deps.jobs.wake('announcement-email');
  return dto;
}

/** Hidden everywhere from now on, its e-mail stopped; the row stays for the audit log. */
export async function deleteAnnouncement(db: Db, actor: Actor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [found] = await tx
      .select()
      .from(announcement)
      .where(and(eq(announcement.id, id), isNull(announcement.deletedAt)))
      .for('update');
    if (!found) throw new AppError('NOT_FOUND', NOT_FOUND);
    const before = await readOne(tx, id);
    await tx
      .update(announcement)
      .set({ deletedAt: new Date(), updatedAt: new Date() })
      .where(eq(announcement.id, id));
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'announcement.delete',
      targetType: 'announcement',
      targetId: id,
      before: auditView(before),
      ipAddress: actor.ip,
    });
  });
}

/**
 * SQL: the customer `userRef` (a column or a value) is in the audience of the announcement
 * `a` (an alias of announcement): everyone, or the group they are in (the default group when
 * they have none).
 */
function inAudience(userRef: ReturnType<typeof sql>) {
  return sql`(a.for_everyone OR EXISTS (
      SELECT 1 FROM announcement_group ag
      WHERE ag.announcement_id = a.id
        AND ag.group_id = COALESCE(
          (SELECT c.group_id FROM customer_price_group c WHERE c.user_id = ${userRef}),
          (SELECT g.id FROM price_group g WHERE g.is_default)
        )
    ))`;
}

type CustomerRow = {
  id: string;
  title: string;
  body: string;
  pinned: boolean;
  starts_at: string | Date;
  ends_at: string | Date | null;
  read: boolean;
};

function iso(value: string | Date): string {
  return new Date(value).toISOString();
}

/**
 * What a customer sees now: started, not ended, not deleted, in their audience; pinned first,
 * then the newest. Staff accounts are no audience (they get none).
 */
export async function listCustomerAnnouncements(
  db: Db,
  viewer: { id: string; role: string },
  only?: string,
): Promise<AnnouncementDto[]> {
  if (viewer.role !== 'customer') return [];
  const rows = await queryRows<CustomerRow>(
    db,
    sql`SELECT a.id, a.title, a.body, a.pinned, a.starts_at, a.ends_at,
          EXISTS (SELECT 1 FROM announcement_read r
                  WHERE r.announcement_id = a.id AND r.user_id = ${viewer.id}) AS read
        FROM announcement a
        WHERE a.deleted_at IS NULL
          AND a.starts_at <= now()
          AND (a.ends_at IS NULL OR a.ends_at > now())
          AND ${inAudience(sql`${viewer.id}`)}
          ${only ? sql`AND a.id = ${only}` : sql``}
        ORDER BY a.pinned DESC, a.starts_at DESC, a.created_at DESC, a.id
        LIMIT 50`,
  );
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    body: r.body,
    pinned: r.pinned,
    startsAt: iso(r.starts_at),
    endsAt: r.ends_at === null ? null : iso(r.ends_at),
    read: r.read,
  }));
}

/** Marks one the customer can see as read (again: no change). 404 for any other. */
export async function markAnnouncementRead(
  db: Db,
  viewer: { id: string; role: string },
  id: string,
): Promise<AnnouncementDto> {
  const [visible] = await listCustomerAnnouncements(db, viewer, id);
  if (!visible) throw new AppError('NOT_FOUND', NOT_FOUND);
  await db
    .insert(announcementRead)
    .values({ announcementId: id, userId: viewer.id })
    .onConflictDoNothing();
  return { ...visible, read: true };
}

type Recipient = { id: string; email: string; name: string };

/**
 * One batch of an announcement's e-mail: claims up to `batchSize` customers of its audience not
 * sent it yet (verified customers only) and queues their e-mails, in one transaction; a full
 * batch queues the next one, a short one marks the e-mail done. Nothing happens for an
 * announcement deleted, not started, ended or whose e-mail was turned off. Safe to run twice or
 * side by side: a customer's row is claimed once (ON CONFLICT DO NOTHING), and only the
 * transaction that claimed it queues their e-mail.
 */
export async function sendAnnouncementEmailBatch(
  deps: Pick<AnnouncementDeps, 'db' | 'env'>,
  announcementId: string,
  batchSize = EMAIL_BATCH,
): Promise<{ queued: number; more: boolean }> {
  return deps.db.transaction(async (tx) => {
    // Locked against a PATCH or DELETE, which wait for this batch (or this batch waits for them).
    const [row] = await tx
      .select()
      .from(announcement)
      .where(eq(announcement.id, announcementId))
      .for('update');
    const now = new Date();
    if (
      !row ||
      row.deletedAt ||
      !row.email ||
      row.emailDoneAt ||
      row.startsAt.getTime() > now.getTime() ||
      (row.endsAt && row.endsAt.getTime() <= now.getTime())
    )
      return { queued: 0, more: false };
    const candidates = await queryRows<Recipient>(
      tx,
      sql`SELECT u.id, u.email, u.name FROM "user" u, announcement a
          WHERE a.id = ${announcementId}
            AND u.role = 'customer' AND u.email_verified AND u.deleted_at IS NULL
            AND u.banned IS NOT TRUE
            AND ${inAudience(sql`u.id`)}
            AND NOT EXISTS (SELECT 1 FROM announcement_email e
                            WHERE e.announcement_id = a.id AND e.user_id = u.id)
          ORDER BY u.id
          LIMIT ${batchSize}`,
    );
    const claimed =
      candidates.length === 0
        ? []
        : await tx
            .insert(announcementEmail)
            .values(candidates.map((c) => ({ announcementId, userId: c.id })))
            .onConflictDoNothing()
            .returning({ userId: announcementEmail.userId });
    const mine = new Set(claimed.map((c) => c.userId));
    const recipients = candidates.filter((c) => mine.has(c.id));
    await insertInTx(
      tx,
      'mail',
      recipients.map((r) => ({
        data: {
          message: announcementMail(deps.env, r, { title: row.title, body: row.body }),
        },
      })),
    );
    const more = candidates.length === batchSize;
    if (more) await sendInTx(tx, 'announcement-email', { announcementId });
    else
      await tx
        .update(announcement)
        .set({ emailDoneAt: now })
        .where(eq(announcement.id, announcementId));
    return { queued: recipients.length, more };
  });
}

/** Announcements whose e-mail should be going out now (the periodic sweep's list). */
export async function dueAnnouncementEmails(db: Db): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`SELECT id FROM announcement
        WHERE email AND email_done_at IS NULL AND deleted_at IS NULL
          AND starts_at <= now() AND (ends_at IS NULL OR ends_at > now())
        ORDER BY starts_at
        LIMIT 100`,
  );
  return rows.map((r) => r.id);
}
