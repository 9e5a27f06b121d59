import { z } from 'zod';
import { BlockUserSchema, DeleteAccountSchema } from '../../../shared/schemas/security';
import { and, eq } from 'drizzle-orm';
import { account } from '../../db/schema/auth';
import { accountDeletedEmail } from '../../lib/email-templates';
import { attachmentDisposition } from '../../lib/download';
import { AppError } from '../../lib/errors';
import { mailAfterCommit } from '../../lib/notify';
import { defineRoute, type RouteDeps } from '../../lib/route';
import type { Context } from 'hono';
import type { AppEnv, SessionUser } from '../../lib/http';
import {
  adminUserSecurity,
  deleteAccount,
  endOtherSessions,
  endSession,
  exportData,
  listSessions,
  removePhone,
  securityOverview,
  setBlocked,
  signInMethods,
} from './security.service';

/** Better Auth's ids: letters, digits, `_` and `-`. */
const AUTH_ID = (description: string) =>
  z.object({
    id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/)
      .describe(description),
  });

/** Security is managed with a session, never with an API key (a leaked key cannot lock you out). */
function sessionOnly(user: SessionUser): void {
  if (user.apiKeyId)
    throw new AppError(
      'FORBIDDEN',
      'La seguridad de la cuenta se gestiona desde Mi perfil, con la sesión iniciada, no con una clave API.',
    );
}

/** The id of the session this request came with. */
async function currentSessionId(deps: RouteDeps, c: Context<AppEnv>): Promise<string | null> {
  const current = await deps.auth.api.getSession({ headers: c.req.raw.headers });
  return current?.session.id ?? null;
}

/** The password (accounts with one) or a TOTP code (accounts without): 403 when wrong. */
async function confirmIdentity(
  deps: RouteDeps,
  c: Context<AppEnv>,
  userId: string,
  proof: { password?: string | undefined; code?: string | undefined },
): Promise<void> {
  const [credential] = await deps.db
    .select({ hash: account.password })
    .from(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, 'credential')));
  if (credential?.hash) {
    if (proof.password === undefined)
      throw new AppError('VALIDATION_FAILED', 'Escribe tu contraseña para confirmar.', {
        password: 'Escribe tu contraseña para confirmar.',
      });
    const ctx = await deps.auth.$context;
    const ok = await ctx.password.verify({ hash: credential.hash, password: proof.password });
    if (!ok)
      throw new AppError('VALIDATION_FAILED', 'La contraseña no es correcta.', {
        password: 'La contraseña no es correcta.',
      });
    return;
  }
  if (proof.code === undefined)
    throw new AppError(
      'VALIDATION_FAILED',
      'Tu cuenta no tiene contraseña: confirma con un código de tu aplicación de verificación (actívala antes en Seguridad).',
      { code: 'Escribe el código de 6 dígitos de tu aplicación.' },
    );
  try {
    await deps.auth.api.verifyTOTP({ body: { code: proof.code }, headers: c.req.raw.headers });
  } catch {
    throw new AppError('VALIDATION_FAILED', 'El código no es correcto.', {
      code: 'El código no es correcto.',
    });
  }
}

/** /api/sign-in-methods, /api/me/security, /api/me/sessions, /api/me/export, /api/me/delete. */
export const securityRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/sign-in-methods',
    operationId: 'signInMethods',
    tag: 'Cuenta',
    summary: 'Las formas de entrar que ofrece esta instalación',
    description:
      'Contraseña, enlace y código por correo, código por SMS y los proveedores configurados (Google, OpenID Connect). Los métodos se usan en `/api/auth/*`.',
    access: 'public',
    responses: [{ status: 200, description: 'Los métodos.', body: 'SignInMethods' }],
    handler: ({ c, deps }) => c.json(signInMethods(deps.env)),
  }),
  defineRoute({
    method: 'get',
    path: '/api/me/security',
    operationId: 'mySecurity',
    tag: 'Cuenta',
    summary: 'La seguridad de tu cuenta',
    description:
      'Métodos de acceso vinculados, verificación en dos pasos, teléfono y proveedores que se pueden vincular.',
    access: 'customer',
    responses: [
      { status: 200, description: 'La seguridad de la cuenta.', body: 'SecurityOverview' },
    ],
    handler: async ({ c, deps, user }) => {
      sessionOnly(user);
      return c.json(await securityOverview(deps.db, deps.env, user.id));
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/api/me/phone',
    operationId: 'removeMyPhone',
    tag: 'Cuenta',
    summary: 'Quitar el teléfono de la cuenta',
    description: 'El número deja de servir para entrar con un código por SMS.',
    access: 'customer',
    responses: [
      { status: 200, description: 'La seguridad de la cuenta.', body: 'SecurityOverview' },
    ],
    handler: async ({ c, deps, user }) => {
      sessionOnly(user);
      await removePhone(deps.db, user.id);
      return c.json(await securityOverview(deps.db, deps.env, user.id));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/me/sessions',
    operationId: 'mySessions',
    tag: 'Cuenta',
    summary: 'Tus sesiones activas',
    description: 'Dispositivo, navegador, lugar aproximado y último uso; `current` es esta.',
    access: 'customer',
    responses: [{ status: 200, description: 'Las sesiones.', body: 'SessionList' }],
    handler: async ({ c, deps, user }) => {
      sessionOnly(user);
      const current = await currentSessionId(deps, c);
      return c.json({ items: await listSessions(deps.db, user.id, current) });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/me/sessions/revoke-others',
    operationId: 'endMyOtherSessions',
    tag: 'Cuenta',
    summary: 'Cerrar todas las demás sesiones',
    description: 'Todas menos esta terminan al momento.',
    access: 'customer',
    responses: [{ status: 200, description: 'Cuántas se cerraron.', body: 'RevokedCount' }],
    handler: async ({ c, deps, user }) => {
      sessionOnly(user);
      const current = await currentSessionId(deps, c);
      return c.json({ revoked: await endOtherSessions(deps.db, user.id, current) });
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/api/me/sessions/:id',
    operationId: 'endMySession',
    tag: 'Cuenta',
    summary: 'Cerrar una sesión',
    description: 'Termina al momento. Cerrar la propia equivale a salir.',
    access: 'customer',
    params: AUTH_ID('Identificador de la sesión.'),
    responses: [{ status: 200, description: 'Sesión cerrada.', body: 'Revoked' }],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, user, params }) => {
      sessionOnly(user);
      await endSession(deps.db, user.id, params.id);
      return c.json({ revoked: true as const });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/me/export',
    operationId: 'exportMyData',
    tag: 'Cuenta',
    summary: 'Descargar mis datos',
    description:
      'Un archivo JSON con tu perfil, métodos de acceso, sesiones, órdenes, movimientos, recargas, claves API (sin el secreto), webhooks y tickets de soporte.',
    access: 'customer',
    responses: [
      {
        status: 200,
        description: 'El archivo.',
        body: { media: ['application/json'], description: 'Tus datos, en JSON.' },
      },
    ],
    handler: async ({ deps, user }) => {
      sessionOnly(user);
      const data = await exportData(deps.db, user.id);
      const day = new Date().toISOString().slice(0, 10);
      return new Response(JSON.stringify(data, null, 2), {
        status: 200,
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'Content-Disposition': attachmentDisposition(`cometa-mis-datos-${day}.json`),
          'Cache-Control': 'no-store',
        },
      });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/me/delete',
    operationId: 'deleteMyAccount',
    tag: 'Cuenta',
    summary: 'Eliminar mi cuenta',
    description:
      'Con la contraseña (o, en cuentas sin contraseña, un código de verificación en dos pasos) y `confirm: "ELIMINAR"`. Solo con saldo 0,00 (disponible y retenido) y sin órdenes en curso. Los datos personales se borran o anonimizan; las órdenes, los pagos y los movimientos se conservan anónimos como registros contables. Termina todas las sesiones.',
    access: 'customer',
    body: { schema: DeleteAccountSchema },
    rateLimit: {
      name: 'delete-account',
      per: 'user',
      window: 15 * 60,
      max: 5,
      message: 'Demasiados intentos. Espera unos minutos e inténtalo de nuevo.',
    },
    responses: [{ status: 200, description: 'Cuenta eliminada.', body: 'Deleted' }],
    errors: ['BALANCE_NOT_ZERO', 'ORDERS_IN_PROGRESS'],
    handler: async ({ c, deps, user, body }) => {
      sessionOnly(user);
      await confirmIdentity(deps, c, user.id, body);
      const former = await deleteAccount(deps.db, user.id, { ip: c.get('clientIp') });
      mailAfterCommit(deps, 'account deleted', { userId: user.id }, () =>
        accountDeletedEmail(deps.env.APP_NAME, former.email, former.name),
      );
      return c.json({ deleted: true as const });
    },
  }),
];

/** /api/admin/users/:id/…: a customer's sign-in methods, second factor, sessions, block. */
export const securityAdminRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/admin/users/:id/security',
    operationId: 'adminUserSecurity',
    tag: 'Administración',
    summary: 'La seguridad de un cliente',
    description: 'Métodos de acceso, verificación en dos pasos, sesiones y bloqueo.',
    access: 'admin',
    roles: ['admin', 'support', 'finance'],
    params: AUTH_ID('Identificador de la cuenta.'),
    responses: [
      { status: 200, description: 'La seguridad del cliente.', body: 'AdminUserSecurity' },
    ],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, params }) =>
      c.json(await adminUserSecurity(deps.db, deps.env, params.id)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/users/:id/sessions/revoke',
    operationId: 'adminEndUserSessions',
    tag: 'Administración',
    summary: 'Cerrar todas las sesiones de un cliente',
    description:
      'Terminan al momento; sus claves API siguen activas (bloquea la cuenta para pararlas).',
    access: 'admin',
    roles: ['admin'],
    params: AUTH_ID('Identificador de la cuenta.'),
    responses: [{ status: 200, description: 'Cuántas se cerraron.', body: 'RevokedCount' }],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, user, params }) => {
      await adminUserSecurity(deps.db, deps.env, params.id);
      return c.json({
        revoked: await endOtherSessions(deps.db, params.id, null, {
          actorId: user.id,
          ipAddress: c.get('clientIp'),
        }),
      });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/users/:id/block',
    operationId: 'adminBlockUser',
    tag: 'Administración',
    summary: 'Bloquear una cuenta',
    description:
      'Cierra sus sesiones; no puede volver a entrar ni usar sus claves API hasta que se desbloquee. Queda auditado.',
    access: 'admin',
    roles: ['admin'],
    params: AUTH_ID('Identificador de la cuenta.'),
    body: { schema: BlockUserSchema },
    responses: [
      { status: 200, description: 'La seguridad del cliente.', body: 'AdminUserSecurity' },
    ],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, user, params, body }) => {
      await setBlocked(deps.db, {
        adminId: user.id,
        userId: params.id,
        blocked: true,
        reason: body.reason,
        ip: c.get('clientIp'),
      });
      return c.json(await adminUserSecurity(deps.db, deps.env, params.id));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/users/:id/unblock',
    operationId: 'adminUnblockUser',
    tag: 'Administración',
    summary: 'Desbloquear una cuenta',
    description: 'Puede volver a entrar y usar sus claves API. Queda auditado.',
    access: 'admin',
    roles: ['admin'],
    params: AUTH_ID('Identificador de la cuenta.'),
    responses: [
      { status: 200, description: 'La seguridad del cliente.', body: 'AdminUserSecurity' },
    ],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, user, params }) => {
      await setBlocked(deps.db, {
        adminId: user.id,
        userId: params.id,
        blocked: false,
        reason: null,
        ip: c.get('clientIp'),
      });
      return c.json(await adminUserSecurity(deps.db, deps.env, params.id));
    },
  }),
];
