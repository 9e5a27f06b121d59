import { z } from 'zod';
import { roleSchema } from './roles';

// The account's security, as Mi perfil → Seguridad and the admin's customer view show it. The
// sign-in methods themselves are Better Auth's endpoints under /api/auth (magic link, e-mail
// code, phone code, social/OIDC, two-factor); these are the shapes of Cometa's own routes around
// them. docs/decisions/0014-sign-in-methods.md explains the choices.

/** GET /api/sign-in-methods: which ways in this instance offers (buttons only for these). */
export const SignInMethodsSchema = z.strictObject({
  password: z.literal(true),
  emailLink: z.literal(true),
  emailCode: z.literal(true),
  phone: z.literal(true),
  /** Federated providers configured on this instance, in the order the buttons show them. */
  providers: z.array(
    z.strictObject({
      /** The Better Auth provider id: `google` or `oidc`. */
      id: z.enum(['google', 'oidc']),
      /** The button's label ("Google", or OIDC_NAME). */
      name: z.string(),
    }),
  ),
  passkey: z.boolean(),
});
export type SignInMethods = z.infer<typeof SignInMethodsSchema>;

/** One signed-in device, as the person (or an admin) sees it; never the session token. */
export const SessionInfoSchema = z.strictObject({
  id: z.string(),
  /** This request's own session. */
  current: z.boolean(),
  /** "Ordenador", "Móvil", "Tableta" or "Dispositivo desconocido". */
  device: z.string(),
  /** "Chrome 131 en Windows", "Safari en iPhone"…, or "Navegador desconocido". */
  browser: z.string(),
  /** The address, shortened (203.0.113.x), or null when unknown. */
  ip: z.string().nullable(),
  /** Approximate place from the address ("Red local", or "Ubicación desconocida"). */
  place: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string(),
  expiresAt: z.string(),
});
export type SessionInfo = z.infer<typeof SessionInfoSchema>;

export const SessionListSchema = z.strictObject({ items: z.array(SessionInfoSchema) });
export type SessionList = z.infer<typeof SessionListSchema>;

/** The ways an account can sign in, as listed on Seguridad. */
export const LinkedMethodSchema = z.strictObject({
  /** `credential` (password), `google`, `oidc`, `phone`, `email` (link or code, always on). */
  kind: z.enum(['credential', 'google', 'oidc', 'phone', 'email']),
  /** What to show: the address, the number, the provider's name. */
  label: z.string(),
  /** Better Auth's account row id, to unlink a provider (`POST /api/auth/unlink-account { accountId }`). */
  accountId: z.string().nullable(),
  /** Whether removing it is allowed now (never the last way in). */
  removable: z.boolean(),
});
export type LinkedMethod = z.infer<typeof LinkedMethodSchema>;

/** GET /api/me/security */
export const SecurityOverviewSchema = z.strictObject({
  email: z.string(),
  hasPassword: z.boolean(),
  twoFactorEnabled: z.boolean(),
  /** Admins cannot use the admin area until two-factor is on. */
  twoFactorRequired: z.boolean(),
  phoneNumber: z.string().nullable(),
  phoneNumberVerified: z.boolean(),
  methods: z.array(LinkedMethodSchema),
  /** Providers configured here that are not linked yet (link buttons). */
  linkableProviders: z.array(z.strictObject({ id: z.enum(['google', 'oidc']), name: z.string() })),
});
export type SecurityOverview = z.infer<typeof SecurityOverviewSchema>;

/** POST /api/me/delete: confirm with the password, or (accounts without one) a TOTP code. */
export const DeleteAccountSchema = z
  .strictObject({
    password: z.string().min(1).max(128).optional(),
    code: z
      .string()
      .trim()
      .regex(/^\d{6}$/, 'Escribe el código de 6 dígitos de tu aplicación.')
      .optional(),
    confirm: z.literal('ELIMINAR', { error: 'Escribe ELIMINAR para confirmar.' }),
  })
  .refine((v) => v.password !== undefined || v.code !== undefined, {
    message: 'Confirma con tu contraseña o con un código de verificación.',
    path: ['password'],
  });
export type DeleteAccount = z.infer<typeof DeleteAccountSchema>;

/** GET /api/admin/users/:id/security */
export const AdminUserSecuritySchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: roleSchema,
  blocked: z.boolean(),
  blockReason: z.string().nullable(),
  twoFactorEnabled: z.boolean(),
  methods: z.array(LinkedMethodSchema),
  sessions: z.array(SessionInfoSchema),
});
export type AdminUserSecurity = z.infer<typeof AdminUserSecuritySchema>;

/** POST /api/admin/users/:id/block */
export const BlockUserSchema = z.strictObject({
  reason: z
    .string()
    .trim()
    .min(3, 'Escribe el motivo del bloqueo (3 caracteres o más).')
    .max(300, 'El motivo puede tener hasta 300 caracteres.'),
});
export type BlockUser = z.infer<typeof BlockUserSchema>;
