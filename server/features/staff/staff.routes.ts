import { z } from 'zod';
import {
  AcceptStaffInvitationSchema,
  AuditQuerySchema,
  ChangeStaffRoleSchema,
  InviteStaffSchema,
  StaffInvitationQuerySchema,
} from '../../../shared/schemas/staff';
import { defineRoute } from '../../lib/route';
import { listAudit } from '../audit/audit-log.service';
import {
  acceptInvitation,
  changeStaffRole,
  invitationInfo,
  inviteStaff,
  listStaff,
  removeStaff,
} from './staff.service';

/** An account's `:id` (Better Auth's ids are not UUIDs; anything else answers 404). */
const STAFF_ID = z.object({
  id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .describe('Identificador de la cuenta del miembro del equipo.'),
});

/** /api/admin/staff and /api/admin/audit: the team and what it did (admins only). */
export const staffAdminRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/admin/staff',
    operationId: 'adminListStaff',
    tag: 'Administración',
    summary: 'El equipo: quién trabaja en el panel y con qué rol',
    description:
      'Las cuentas con un rol de equipo (`admin`, `support`, `finance`), con su verificación en dos pasos y su último acceso, y las invitaciones enviadas que aún no se aceptaron ni caducaron.',
    access: 'admin',
    roles: ['admin'],
    responses: [{ status: 200, description: 'El equipo.', body: 'StaffList' }],
    handler: async ({ c, deps }) => c.json(await listStaff(deps.db)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/staff',
    operationId: 'adminInviteStaff',
    tag: 'Administración',
    summary: 'Invitar a alguien al equipo con un rol',
    description: `Envía por correo un enlace de un solo uso que caduca en 7 días. Si el correo ya tiene una cuenta, recibe el rol al aceptar; si no, el enlace permite crearla (nombre y contraseña) con el correo ya verificado. Una invitación nueva al mismo correo sustituye a la anterior. Quien entra en el equipo debe activar la verificación en dos pasos antes de usar el panel.`,
    access: 'admin',
    roles: ['admin'],
    body: { schema: InviteStaffSchema },
    responses: [{ status: 201, description: 'La invitación enviada.', body: 'StaffInvitation' }],
    errors: ['CONFLICT'],
    handler: async ({ c, deps, user, body }) =>
      c.json(
        await inviteStaff(
          deps.db,
          {
            mailer: deps.mailer,
            logger: deps.logger,
            appName: deps.env.APP_NAME,
            appUrl: deps.env.APP_URL,
          },
          { id: user.id, ip: c.get('clientIp') },
          body,
        ),
        201,
      ),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/admin/staff/:id',
    operationId: 'adminChangeStaffRole',
    tag: 'Administración',
    summary: 'Cambiar el rol de un miembro del equipo',
    description:
      'Auditado. La última cuenta de administración no puede perder el rol (409 `LAST_ADMIN`): antes hay que nombrar a otra persona administradora.',
    access: 'admin',
    roles: ['admin'],
    params: STAFF_ID,
    body: { schema: ChangeStaffRoleSchema },
    responses: [{ status: 200, description: 'El miembro con su nuevo rol.', body: 'StaffMember' }],
    errors: ['NOT_FOUND', 'LAST_ADMIN'],
    handler: async ({ c, deps, user, params, body }) =>
      c.json(
        await changeStaffRole(
          deps.db,
          { id: user.id, ip: c.get('clientIp') },
          params.id,
          body.role,
        ),
      ),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/admin/staff/:id',
    operationId: 'adminRemoveStaff',
    tag: 'Administración',
    summary: 'Sacar a alguien del equipo',
    description:
      'Su cuenta vuelve a ser de cliente y se cierran todas sus sesiones. Auditado. La última cuenta de administración no se puede sacar (409 `LAST_ADMIN`).',
    access: 'admin',
    roles: ['admin'],
    params: STAFF_ID,
    responses: [{ status: 200, description: 'Fuera del equipo.', body: 'Deleted' }],
    errors: ['NOT_FOUND', 'LAST_ADMIN'],
    handler: async ({ c, deps, user, params }) => {
      await removeStaff(deps.db, { id: user.id, ip: c.get('clientIp') }, params.id);
      return c.json({ deleted: true as const });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/audit',
    operationId: 'adminListAudit',
    tag: 'Administración',
    summary: 'El registro de auditoría: quién hizo qué, cuándo y desde dónde',
    description:
      'Cada acción del equipo (y los cambios automáticos del sistema, sin autor), de la más reciente a la más antigua, en páginas de 50: quién (con su rol de entonces), la acción, sobre qué (`targetType`, `targetId` y, si tiene, la página del panel en `targetPath`), el antes y el después, la dirección y la fecha. Filtra por persona (`actor`: identificador o correo), acción (exacta o prefijo terminado en punto), objeto y fechas. El registro no se puede cambiar ni borrar: la base de datos lo impide.',
    access: 'admin',
    roles: ['admin'],
    query: AuditQuerySchema,
    responses: [{ status: 200, description: 'Una página del registro.', body: 'AuditPage' }],
    errors: ['BAD_REQUEST'],
    handler: async ({ c, deps, query }) => c.json(await listAudit(deps.db, query)),
  }),
];

/** The invitation link's page: what it offers, and accepting it (no session needed). */
export const staffInvitationRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/staff-invitation',
    operationId: 'getStaffInvitation',
    tag: 'Cuenta',
    summary: 'Lo que ofrece una invitación al equipo',
    description:
      'Con el código del enlace: el correo invitado, el rol y si ya tiene cuenta. 404 si no existe, ya se usó o caducó.',
    access: 'public',
    rateLimit: {
      name: 'staff-invitation',
      per: 'ip',
      window: 600,
      max: 30,
      message: 'Demasiados intentos. Espera unos minutos.',
    },
    query: StaffInvitationQuerySchema,
    responses: [{ status: 200, description: 'La invitación.', body: 'StaffInvitationInfo' }],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, query }) => c.json(await invitationInfo(deps.db, query.token)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/staff-invitation/accept',
    operationId: 'acceptStaffInvitation',
    tag: 'Cuenta',
    summary: 'Aceptar una invitación al equipo',
    description:
      'Con el código del enlace. Si el correo ya tiene cuenta, recibe el rol; si no, se crea con `name` y `password` y el correo verificado. Después se inicia sesión y se activa la verificación en dos pasos. Un enlace sirve una sola vez.',
    access: 'public',
    rateLimit: {
      name: 'staff-invitation-accept',
      per: 'ip',
      window: 600,
      max: 10,
      message: 'Demasiados intentos. Espera unos minutos.',
    },
    body: { schema: AcceptStaffInvitationSchema },
    responses: [{ status: 200, description: 'Aceptada.', body: 'AcceptedStaffInvitation' }],
    errors: ['NOT_FOUND', 'LAST_ADMIN'],
    handler: async ({ c, deps, body }) =>
      c.json(await acceptInvitation(deps.db, deps.auth, body, c.get('clientIp'))),
  }),
];
