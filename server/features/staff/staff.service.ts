// Staff accounts: the list, invitations by e-mail, role changes and removal (docs/domain.md,
// "Staff roles"). Every change writes an audit row in its transaction.
import { createHash, randomBytes } from 'node:crypto';
import { and, asc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { ROLE_LABELS, STAFF_ROLES, isStaffRole, type StaffRole } from '../../../shared/roles';
import {
  STAFF_INVITATION_DAYS,
  type AcceptedStaffInvitation,
  type StaffInvitation,
  type StaffInvitationInfo,
  type StaffList,
  type StaffMember,
} from '../../../shared/schemas/staff';
import { queryRows, type Db, type Tx } from '../../db/client';
import { session, user } from '../../db/schema/auth';
import { staffInvitation } from '../../db/schema/staff';
import type { Auth } from '../../lib/auth';
import { staffInvitationEmail } from '../../lib/email-templates';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import type { Mailer } from '../../lib/mail';
import { mailAfterCommit } from '../../lib/notify';
import { recordAudit } from '../audit/audit.service';

type MailDeps = { mailer: Mailer; logger: Logger; appName: string; appUrl: string };
type Actor = { id: string; ip: string | null };

const INVITATION_GONE =
  'La invitación no existe, ya se usó o caducó. Pide a un administrador otra.';

function iso(value: string | Date): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function listStaff(db: Db): Promise<StaffList> {
  const rows = await db
    .select({
      id: user.id,
      name: user.name,
      email: user.email,
      role: user.role,
      twoFactorEnabled: user.twoFactorEnabled,
      createdAt: user.createdAt,
      lastSignInAt: sql<
        string | Date | null
      >`(SELECT max(s.created_at) FROM ${session} s WHERE s.user_id = ${user.id})`,
    })
    .from(user)
    .where(and(inArray(user.role, [...STAFF_ROLES]), isNull(user.deletedAt)))
    .orderBy(asc(user.email));
  const items: StaffMember[] = rows.map((r) => ({
    id: r.id,
    name: r.name,
    email: r.email,
    role: r.role as StaffRole,
    twoFactorEnabled: r.twoFactorEnabled === true,
    lastSignInAt: r.lastSignInAt ? iso(r.lastSignInAt) : null,
    createdAt: iso(r.createdAt),
  }));
  const pending = await db
    .select({
      id: staffInvitation.id,
      email: staffInvitation.email,
      role: staffInvitation.role,
      createdAt: staffInvitation.createdAt,
      expiresAt: staffInvitation.expiresAt,
      invitedBy: user.name,
    })
    .from(staffInvitation)
    .leftJoin(user, eq(user.id, staffInvitation.invitedBy))
    .where(and(isNull(staffInvitation.acceptedAt), gt(staffInvitation.expiresAt, sql`now()`)))
    .orderBy(asc(staffInvitation.createdAt));
  return { items, invitations: pending.map(toInvitation) };
}

function toInvitation(r: {
  id: string;
  email: string;
  role: string;
  createdAt: Date;
  expiresAt: Date;
  invitedBy: string | null;
}): StaffInvitation {
  return {
    id: r.id,
    email: r.email,
    role: r.role as StaffRole,
    invitedBy: r.invitedBy,
    createdAt: iso(r.createdAt),
    expiresAt: iso(r.expiresAt),
  };
}

/**
 * Invites an address to the staff with a role: a one-time link by e-mail (through the mail queue,
 * after the commit). A pending invitation to the same address is replaced.
 */
export async function inviteStaff(
  db: Db,
  mail: MailDeps,
  actor: Actor,
  input: { email: string; role: StaffRole },
): Promise<StaffInvitation> {
  const token = randomBytes(32).toString('base64url');
  const invitation = await db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ role: user.role })
      .from(user)
      .where(and(eq(user.email, input.email), isNull(user.deletedAt)));
    if (existing?.role === input.role)
      throw new AppError(
        'CONFLICT',
        `Esta persona ya es del equipo con el rol «${ROLE_LABELS[input.role]}».`,
      );
    // The previous pending invitation to this address stops working.
    await tx
      .update(staffInvitation)
      .set({ expiresAt: sql`now()` })
      .where(
        and(
          eq(staffInvitation.email, input.email),
          isNull(staffInvitation.acceptedAt),
          gt(staffInvitation.expiresAt, sql`now()`),
        ),
      );
    const [row] = await tx
      .insert(staffInvitation)
      .values({
        email: input.email,
        role: input.role,
        tokenHash: hashToken(token),
        invitedBy: actor.id,
        expiresAt: sql`now() + make_interval(days => ${STAFF_INVITATION_DAYS})`,
      })
      .returning();
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'staff.invite',
      targetType: 'staff_invitation',
      targetId: row!.id,
      after: { email: input.email, role: input.role },
      ipAddress: actor.ip,
    });
    const [inviter] = await tx.select({ name: user.name }).from(user).where(eq(user.id, actor.id));
    return toInvitation({ ...row!, invitedBy: inviter?.name ?? null });
  });
  const url = `${mail.appUrl.replace(/\/$/, '')}/invitacion?token=${token}`;
  mailAfterCommit(mail, 'staff invitation', { invitationId: invitation.id }, () =>
    staffInvitationEmail({
      appName: mail.appName,
      to: input.email,
      roleLabel: ROLE_LABELS[input.role],
      invitedBy: invitation.invitedBy ?? 'Un administrador',
      url,
      days: STAFF_INVITATION_DAYS,
    }),
  );
  return invitation;
}

/** Locks the admins' rows and refuses when `userId` is the last admin losing the role. */
async function keepAnAdmin(tx: Tx, userId: string): Promise<void> {
  const admins = await queryRows<{ id: string }>(
    tx,
    sql`SELECT id FROM "user" WHERE role = 'admin' AND deleted_at IS NULL ORDER BY id FOR UPDATE`,
  );
  const ids = admins.map((r) => r.id);
  if (ids.length <= 1 && ids.includes(userId)) throw new AppError('LAST_ADMIN');
}

async function staffRow(tx: Tx, id: string) {
  const [row] = await tx
    .select({ id: user.id, role: user.role, email: user.email })
    .from(user)
    .where(and(eq(user.id, id), isNull(user.deletedAt)));
  if (!row || !isStaffRole(row.role))
    throw new AppError('NOT_FOUND', 'No hay nadie del equipo con ese identificador.');
  return row as { id: string; role: StaffRole; email: string };
}

export async function changeStaffRole(
  db: Db,
  actor: Actor,
  id: string,
  role: StaffRole,
): Promise<StaffMember> {
  await db.transaction(async (tx) => {
    const row = await staffRow(tx, id);
    if (row.role === role) return;
    if (row.role === 'admin') await keepAnAdmin(tx, id);
    await tx.update(user).set({ role, updatedAt: new Date() }).where(eq(user.id, id));
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'staff.role_change',
      targetType: 'staff',
      targetId: id,
      before: { role: row.role },
      after: { role },
      ipAddress: actor.ip,
    });
  });
  const list = await listStaff(db);
  const member = list.items.find((m) => m.id === id);
  if (!member) throw new AppError('NOT_FOUND');
  return member;
}

/** Back to a customer account: the role goes and every session of theirs ends. */
export async function removeStaff(db: Db, actor: Actor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await staffRow(tx, id);
    if (row.role === 'admin') await keepAnAdmin(tx, id);
    await tx.update(user).set({ role: 'customer', updatedAt: new Date() }).where(eq(user.id, id));
    await tx.delete(session).where(eq(session.userId, id));
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'staff.remove',
      targetType: 'staff',
      targetId: id,
      before: { role: row.role },
      after: { role: 'customer' },
      ipAddress: actor.ip,
    });
  });
}

async function pendingInvitation(db: Db | Tx, token: string) {
  const [row] = await db
    .select()
    .from(staffInvitation)
    .where(
      and(
        eq(staffInvitation.tokenHash, hashToken(token)),
        isNull(staffInvitation.acceptedAt),
        gt(staffInvitation.expiresAt, sql`now()`),
      ),
    );
  if (!row || !isStaffRole(row.role)) throw new AppError('NOT_FOUND', INVITATION_GONE);
  return row as typeof row & { role: StaffRole };
}

export async function invitationInfo(db: Db, token: string): Promise<StaffInvitationInfo> {
  const row = await pendingInvitation(db, token);
  const [existing] = await db
    .select({ id: user.id })
    .from(user)
    .where(and(eq(user.email, row.email), isNull(user.deletedAt)));
  return {
    email: row.email,
    role: row.role,
    roleLabel: ROLE_LABELS[row.role],
    hasAccount: Boolean(existing),
    expiresAt: iso(row.expiresAt),
  };
}

/**
 * Accepts an invitation. The link is the proof the address is theirs: an existing account gets
 * the role (and its e-mail counts as verified); otherwise the account is created with the name
 * and password given, already verified. Two-factor is asked for at the first sign-in.
 */
export async function acceptInvitation(
  db: Db,
  auth: Auth,
  input: { token: string; name?: string | undefined; password?: string | undefined },
  ip: string | null,
): Promise<AcceptedStaffInvitation> {
  const invitation = await pendingInvitation(db, input.token);
  const [existing] = await db
    .select({ id: user.id })
    .from(user)
    .where(and(eq(user.email, invitation.email), isNull(user.deletedAt)));
  let userId = existing?.id ?? null;
  let created = false;
  if (!userId) {
    const fields: Record<string, string> = {};
    if (!input.name) fields.name = 'Escribe tu nombre.';
    if (!input.password) fields.password = 'Elige una contraseña.';
    if (Object.keys(fields).length) throw new AppError('VALIDATION_FAILED', undefined, fields);
    const made = await auth.api.createUser({
      body: {
        email: invitation.email,
        password: input.password!,
        name: input.name!,
      },
    });
    userId = made.user.id;
    created = true;
  }
  await db.transaction(async (tx) => {
    const claimed = await tx
      .update(staffInvitation)
      .set({ acceptedAt: sql`now()`, acceptedBy: userId })
      .where(and(eq(staffInvitation.id, invitation.id), isNull(staffInvitation.acceptedAt)))
      .returning({ id: staffInvitation.id });
    if (claimed.length === 0) throw new AppError('NOT_FOUND', INVITATION_GONE);
    const [before] = await tx.select({ role: user.role }).from(user).where(eq(user.id, userId));
    if (before?.role === 'admin' && invitation.role !== 'admin') await keepAnAdmin(tx, userId);
    await tx
      .update(user)
      .set({ role: invitation.role, emailVerified: true, updatedAt: new Date() })
      .where(eq(user.id, userId));
    await recordAudit(tx, {
      actorId: userId,
      action: 'staff.join',
      targetType: 'staff',
      targetId: userId,
      before: { role: created ? null : (before?.role ?? null) },
      after: { role: invitation.role, invitationId: invitation.id },
      ipAddress: ip,
    });
  });
  return { email: invitation.email, role: invitation.role, created };
}
