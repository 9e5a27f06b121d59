// Staff accounts, their invitations and the audit log (docs/domain.md, "Staff roles").
import { z } from 'zod';
import { staffRoleSchema } from './roles';
import { EmailSchema, NameSchema, PasswordSchema } from './auth';
import { DateTimeSchema } from './common';
import { OpaqueCursorSchema, dateTimeQuery } from './query';

/** How long an invitation link works. */
export const STAFF_INVITATION_DAYS = 7;

const StaffRoleField = z
  .enum(['admin', 'support', 'finance'], {
    error: 'Elige un rol: admin, support o finance.',
  })
  .meta({
    description:
      'El rol: `admin` (todo), `support` (cola de órdenes y clientes, sin dinero) o `finance` (pagos, ajustes e informes).',
    example: 'support',
  });

/** A member of staff (GET /api/admin/staff). */
export const StaffMemberSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: staffRoleSchema,
  twoFactorEnabled: z.boolean(),
  /** The newest session's start; null: never signed in (or no session kept). */
  lastSignInAt: DateTimeSchema.nullable(),
  createdAt: DateTimeSchema,
});
export type StaffMember = z.infer<typeof StaffMemberSchema>;

/** An invitation sent and not yet accepted (nor expired). */
export const StaffInvitationSchema = z.strictObject({
  id: z.uuid(),
  email: z.string(),
  role: staffRoleSchema,
  /** Who sent it; null if that account no longer exists. */
  invitedBy: z.string().nullable(),
  createdAt: DateTimeSchema,
  expiresAt: DateTimeSchema,
});
export type StaffInvitation = z.infer<typeof StaffInvitationSchema>;

export const StaffListSchema = z.strictObject({
  items: z.array(StaffMemberSchema),
  invitations: z.array(StaffInvitationSchema),
});
export type StaffList = z.infer<typeof StaffListSchema>;

/** POST /api/admin/staff */
export const InviteStaffSchema = z.object({
  email: EmailSchema.meta({
    description: 'El correo de la persona invitada.',
    example: 'soporte@example.com',
  }),
  role: StaffRoleField,
});
export type InviteStaff = z.infer<typeof InviteStaffSchema>;

/** PATCH /api/admin/staff/:id */
export const ChangeStaffRoleSchema = z.object({ role: StaffRoleField });
export type ChangeStaffRole = z.infer<typeof ChangeStaffRoleSchema>;

const TokenField = z
  .string({ error: 'El enlace de la invitación no es válido.' })
  .regex(/^[A-Za-z0-9_-]{20,100}$/, 'El enlace de la invitación no es válido.')
  .meta({ description: 'El código del enlace de la invitación.' });

/** GET /api/staff-invitation?token= */
export const StaffInvitationQuerySchema = z.object({ token: TokenField });

/** What the invitation page shows before accepting. */
export const StaffInvitationInfoSchema = z.strictObject({
  email: z.string(),
  role: staffRoleSchema,
  roleLabel: z.string(),
  /** The address already has an account: accepting gives it the role; otherwise one is created. */
  hasAccount: z.boolean(),
  expiresAt: DateTimeSchema,
});
export type StaffInvitationInfo = z.infer<typeof StaffInvitationInfoSchema>;

/** POST /api/staff-invitation/accept: name and password only when the account is new. */
export const AcceptStaffInvitationSchema = z.object({
  token: TokenField,
  name: NameSchema.optional(),
  password: PasswordSchema.optional(),
});
export type AcceptStaffInvitation = z.infer<typeof AcceptStaffInvitationSchema>;

export const AcceptedStaffInvitationSchema = z.strictObject({
  email: z.string(),
  role: staffRoleSchema,
  /** A new account was created (with the e-mail already verified). */
  created: z.boolean(),
});
export type AcceptedStaffInvitation = z.infer<typeof AcceptedStaffInvitationSchema>;

// ─── The audit log ───────────────────────────────────────────────────────────────────────────

/** Rows per page of GET /api/admin/audit. */
export const AUDIT_PAGE_SIZE = 50;

/** `?actor=&action=&targetType=&targetId=&from=&to=&cursor=` of GET /api/admin/audit. */
export const AuditQuerySchema = z.object({
  actor: z
    .string()
    .trim()
    .max(254, 'La persona del filtro no es válida.')
    .optional()
    .meta({ description: 'Quién lo hizo: su identificador o su correo exacto.' }),
  action: z.string().trim().max(100, 'La acción del filtro no es válida.').optional().meta({
    description: 'La acción exacta (`order.complete`) o un prefijo terminado en punto (`order.`).',
    example: 'order.',
  }),
  targetType: z
    .string()
    .trim()
    .max(50, 'El tipo del filtro no es válido.')
    .optional()
    .meta({ description: 'Sobre qué: `order`, `user`, `service`, `supplier`…', example: 'order' }),
  targetId: z
    .string()
    .trim()
    .max(100, 'El identificador del filtro no es válido.')
    .optional()
    .meta({ description: 'El identificador del objeto.' }),
  from: dateTimeQuery('Desde este momento (incluido).', '2026-05-01').optional(),
  to: dateTimeQuery(
    'Hasta este momento (excluido); una fecha sola incluye ese día entero.',
    '2026-05-31',
  ).optional(),
  cursor: OpaqueCursorSchema.optional(),
});
export type AuditQuery = z.output<typeof AuditQuerySchema>;

export const AuditActorSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  /** Their role when they did it (null for rows written before roles were recorded). */
  role: z.string().nullable(),
});

/** One row of the audit log. */
export const AuditItemSchema = z.strictObject({
  id: z.uuid(),
  /** Null for the system's own changes (price sync) and accounts deleted since. */
  actor: AuditActorSchema.nullable(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  /** The back-office page of the target, when it has one (`/admin/clientes/…`). */
  targetPath: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  ipAddress: z.string().nullable(),
  createdAt: DateTimeSchema,
});
export type AuditItem = z.infer<typeof AuditItemSchema>;

export const AuditPageSchema = z.strictObject({
  items: z.array(AuditItemSchema),
  nextCursor: z.string().nullable(),
});
export type AuditPage = z.infer<typeof AuditPageSchema>;

/** How the audit log's target types are named to people. */
export const AUDIT_TARGET_LABELS: Record<string, string> = {
  order: 'Orden',
  user: 'Cliente',
  staff: 'Personal',
  service: 'Servicio',
  supplier: 'Proveedor',
  manual_topup: 'Pago manual',
  manual_method: 'Método de pago',
  voucher_batch: 'Códigos de recarga',
  snippet: 'Respuesta guardada',
  refill: 'Reposición',
  staff_invitation: 'Invitación',
};
