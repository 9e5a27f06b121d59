import { isStaffRole } from '../../shared/roles';
import { createHash, createHmac } from 'node:crypto';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from 'better-auth/api';
import {
  admin,
  emailOTP,
  genericOAuth,
  magicLink,
  phoneNumber,
  twoFactor,
} from 'better-auth/plugins';
import type { BetterAuthPlugin } from 'better-auth';
import { constantTimeEqual, symmetricDecrypt } from 'better-auth/crypto';
// Better Auth's own base32 and OTP code (installed with it, at the version it pins).
import { base32 } from '@better-auth/utils/base32';
import { createOTP } from '@better-auth/utils/otp';
import { and, eq, sql } from 'drizzle-orm';
import { NameSchema } from '../../shared/schemas/auth';
import { queryRows, type Db } from '../db/client';
import {
  account,
  knownDevice,
  session,
  twoFactor as twoFactorTable,
  user,
  verification,
} from '../db/schema/auth';
import type { Env } from '../env';
import { CLIENT_IP_HEADER } from './client-ip';
import { TOTP_STEP_SECONDS, claimTotpStep, endTrustedDevices } from './auth-records';
import {
  changeEmailConfirmationEmail,
  magicLinkEmail,
  newSignInEmail,
  passwordChangedEmail,
  resetPasswordEmail,
  securityChangeEmail,
  signInCodeEmail,
  signUpAttemptEmail,
  verificationEmail,
} from './email-templates';
import { describeDevice, deviceHash } from './devices';
import type { SmsSender } from './sms';
import type { Logger } from './logger';
import { mailAfterCommit } from './notify';
import type { MailMessage, Mailer } from './mail';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from './passwords';
import { consumeRateLimit } from './rate-limit';
import { sameOriginPath } from './safe-redirect';
import { registerSessionLookup } from './session-lookup';

export type AuthDeps = { db: Db; env: Env; mailer: Mailer; sms: SmsSender; logger: Logger };

/** Better Auth paths whose body carries an e-mail that gets its own per-account counter. */
const PER_ACCOUNT_LIMITED = new Set([
  '/sign-in/email',
  '/sign-up/email',
  '/request-password-reset',
  '/send-verification-email',
  '/sign-in/magic-link',
  '/email-otp/send-verification-otp',
  '/sign-in/email-otp',
]);

/** Better Auth paths whose body carries a phone number that gets its own counter. */
const PER_NUMBER_LIMITED = new Set(['/phone-number/send-otp', '/phone-number/verify']);

/** Codes and links sent by e-mail or SMS live this long (seconds). */
export const CODE_TTL_SECONDS = 10 * 60;
/** Wrong codes allowed before a sent code is void. */
export const CODE_ATTEMPTS = 5;
/** A device trusted after the second factor skips it for this long (seconds). */
export const TRUST_DEVICE_SECONDS = 30 * 24 * 60 * 60;
/** Failed second-factor codes before the second factor locks, and for how long (seconds). */
export const TWO_FACTOR_LOCKOUT = { maxFailedAttempts: 5, durationSeconds: 15 * 60 };

/** Where the phone-number plugin keeps the code sent to a number. */
const PHONE_CODE_PREFIX = 'phone-number-otp-';

/** How an SMS code is stored: an HMAC with the auth secret, so the table alone does not reveal it. */
function phoneCodeHash(secret: string, code: string): string {
  return createHmac('sha256', secret).update(`phone-code:${code}`).digest('base64url');
}

/**
 * The one answer to a wrong, used, expired or voided SMS code, and to a number no account has
 * verified, so the form tells nothing about which numbers have an account.
 */
function wrongPhoneCode(): APIError {
  return new APIError('BAD_REQUEST', {
    code: 'INVALID_OTP',
    message: 'El código no es correcto o ha caducado.',
  });
}

type SecretConfig = Parameters<typeof symmetricDecrypt>[0]['key'];

/**
 * The TOTP step `code` belongs to for the account — the current one or a neighbour, the steps the
 * two-factor plugin accepts — or null when it matches none. Reads the secret as the plugin does
 * (encrypted with the auth secret; `base32:` marks an imported one).
 */
async function totpStepOf(
  db: Db,
  secretConfig: SecretConfig,
  userId: string,
  code: string,
): Promise<number | null> {
  const [row] = await db
    .select({ secret: twoFactorTable.secret })
    .from(twoFactorTable)
    .where(eq(twoFactorTable.userId, userId));
  if (!row) return null;
  const decrypted = await symmetricDecrypt({ key: secretConfig, data: row.secret });
  const secret = decrypted.startsWith('base32:')
    ? base32.decode(decrypted.slice('base32:'.length).toUpperCase())
    : decrypted;
  const otp = createOTP(secret, { period: TOTP_STEP_SECONDS, digits: 6 });
  const now = Math.floor(Date.now() / 1000 / TOTP_STEP_SECONDS);
  let matched: number | null = null;
  for (const step of [now - 1, now, now + 1]) {
    if (constantTimeEqual(await otp.hotp(step), code)) matched = step;
  }
  return matched;
}

/**
 * Two-factor changes that the plugin confirms with the password: an account without one, whose
 * two-factor is on, confirms them with a code of its app instead (the plugin's
 * `allowPasswordless` would ask nothing).
 */
const CONFIRMED_BY_SECOND_FACTOR = new Set([
  // Enabling again while it is on would hand out a new secret.
  '/two-factor/enable',
  '/two-factor/disable',
  '/two-factor/generate-backup-codes',
]);

/** Whether the account can sign in with a password (it has a credential account). */
async function hasPassword(db: Db, userId: string): Promise<boolean> {
  const rows = await db
    .select({ id: account.id })
    .from(account)
    .where(and(eq(account.userId, userId), eq(account.providerId, 'credential')))
    .limit(1);
  return rows.length > 0;
}

/** International format (E.164): a plus, the country code, 8 to 15 digits in all. */
export const PHONE_NUMBER = /^\+[1-9]\d{7,14}$/;

/**
 * Ways in that create a session without the password form: the two-factor plugin only checks
 * its own list (password, username, phone + password), so these get the same check
 * (withSecondFactorEverywhere). GET callbacks end in a redirect to /login/dos-pasos.
 */
const PASSWORDLESS_SIGN_IN = new Set([
  '/sign-in/email-otp',
  '/phone-number/verify',
  '/magic-link/verify',
  '/callback/:id',
  '/oauth2/callback/:id',
]);
const REDIRECTING_SIGN_IN = new Set([
  '/magic-link/verify',
  '/callback/:id',
  '/oauth2/callback/:id',
]);

/**
 * The Better Auth endpoints the product uses: the web app's calls, the links in our e-mails, the
 * provider callbacks, Better Auth's error page for a failed callback, and /admin/set-role (how an
 * operator makes an account an admin). Every other endpoint of the built auth answers 404, also
 * one a later Better Auth adds (docs/decisions/0014).
 */
export const ENABLED_AUTH_PATHS: ReadonlySet<string> = new Set([
  '/sign-up/email',
  '/sign-in/email',
  '/sign-out',
  '/get-session',
  '/verify-email',
  '/send-verification-email',
  '/request-password-reset',
  '/reset-password/:token',
  '/reset-password',
  '/change-password',
  '/change-email',
  '/sign-in/social',
  '/link-social',
  '/unlink-account',
  '/callback/:id',
  '/error',
  '/sign-in/magic-link',
  '/magic-link/verify',
  '/email-otp/send-verification-otp',
  '/sign-in/email-otp',
  '/phone-number/send-otp',
  '/phone-number/verify',
  '/two-factor/enable',
  '/two-factor/disable',
  '/two-factor/verify-totp',
  '/two-factor/verify-backup-code',
  '/two-factor/generate-backup-codes',
  '/admin/set-role',
]);

/** The paths of `api` (Better Auth's endpoints) outside ENABLED_AUTH_PATHS. */
function unusedAuthPaths(api: Record<string, unknown>): string[] {
  const paths = new Set<string>();
  for (const endpoint of Object.values(api)) {
    const path = (endpoint as { path?: unknown }).path;
    if (typeof path !== 'string' || ENABLED_AUTH_PATHS.has(path)) continue;
    // disabledPaths is compared with the request's path as sent, so `:param` would never match.
    if (path.includes(':'))
      throw new Error(
        `Better Auth's ${path} cannot be turned off by path: decide about it in ENABLED_AUTH_PATHS.`,
      );
    paths.add(path);
  }
  return [...paths];
}

/** Where a browser finishes a sign-in that still needs the second factor. */
export const TWO_FACTOR_PAGE = '/login/dos-pasos';

const PASSWORD_FIELDS: Record<string, string> = {
  '/sign-up/email': 'password',
  '/reset-password': 'newPassword',
  '/change-password': 'newPassword',
};

/** Where the app's pages are served from (in development also Vite's dev server). */
export function trustedOrigins(env: Env): string[] {
  return env.isProduction ? [env.APP_URL] : [env.APP_URL, 'http://localhost:5173'];
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Whether /verify-email verified the address: it answers the page to go to (a redirect without
 * an `error` parameter) or, without a page, a JSON success; anything else is a refusal.
 */
export function verifiedByLink(returned: unknown): boolean {
  if (!isAPIError(returned)) return !(returned instanceof Response) || returned.ok;
  if (returned.statusCode !== 302) return false;
  const location = new Headers(returned.headers).get('location');
  if (location === null) return false;
  return !new URL(location, 'http://x').searchParams.has('error');
}

/**
 * What sign-up answers, whether the address was new or already had an account: the same status,
 * body and (no) cookie, so the form cannot be used to find out who has an account
 * (docs/decisions/0010-sign-up-enumeration.md).
 */
export const SIGN_UP_ANSWER = {
  status: true,
  message: 'Revisa tu correo: te enviamos un enlace para continuar.',
} as const;

/**
 * The name of `value` as NameSchema (shared/schemas/auth.ts) accepts it, trimmed; otherwise a
 * 400 with the Spanish message. Every Better Auth path that writes a name goes through it.
 */
function checkedName(value: unknown): string {
  const parsed = NameSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const message = parsed.error.issues[0]?.message ?? 'Revisa tu nombre.';
  throw new APIError('BAD_REQUEST', {
    code: 'VALIDATION_FAILED',
    message,
    fields: { name: message },
  });
}

/** `path` (a same-origin path) with `error=<code>` added to its query. */
function withErrorParam(path: string, code: string, appUrl: string): string {
  const url = new URL(path, appUrl);
  url.searchParams.set('error', code);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** A name for an account created without one (e-mail link or code): the address's local part. */
function nameFromEmail(email: unknown): string {
  const local = typeof email === 'string' ? (email.split('@')[0] ?? '') : '';
  const cleaned = local
    .replace(/[<>]/g, '')
    .replace(/[._-]+/g, ' ')
    .trim()
    .slice(0, 80);
  return cleaned === '' ? 'Cliente' : cleaned;
}

/**
 * The two-factor plugin, checking every way in: its after-hook also runs on the passwordless
 * sign-ins (PASSWORDLESS_SIGN_IN), so an account with TOTP never gets a session from an e-mail
 * link, a code or a provider without the second factor.
 */
function withSecondFactorEverywhere<P extends BetterAuthPlugin>(plugin: P): P {
  for (const hook of plugin.hooks?.after ?? []) {
    const matcher = hook.matcher;
    hook.matcher = (ctx) => matcher(ctx) || PASSWORDLESS_SIGN_IN.has(ctx.path ?? '');
  }
  return plugin;
}

/**
 * Runs after the two-factor plugin: a GET sign-in (e-mail link, provider callback) that the
 * plugin stopped for the second factor answers with a redirect to /login/dos-pasos instead of
 * JSON, keeping the plugin's cookies.
 */
function secondFactorRedirects(): BetterAuthPlugin {
  return {
    id: 'cometa-second-factor-redirects',
    hooks: {
      after: [
        {
          matcher: (ctx) => REDIRECTING_SIGN_IN.has(ctx.path ?? ''),
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned as { twoFactorRedirect?: unknown } | undefined;
            if (returned && typeof returned === 'object' && returned.twoFactorRedirect === true) {
              throw ctx.redirect(TWO_FACTOR_PAGE);
            }
          }),
        },
      ],
    },
  };
}

export function createAuth({ db, env, mailer, sms, logger }: AuthDeps) {
  // E-mails are sent without holding up the request; a failure is logged and the person
  // can ask again ("reenviar").
  function sendInBackground(message: MailMessage, what: string) {
    mailAfterCommit({ mailer, logger }, what, { to: message.to }, () => message);
  }

  const ttl = env.SESSION_TTL_SECONDS;
  const rule = { window: env.RATE_LIMIT_WINDOW_SECONDS, max: env.RATE_LIMIT_MAX_PER_IP };
  const securityUrl = `${env.APP_URL}/profile#seguridad`;

  /** "Something changed in how you sign in" to the account's address, after the change. */
  function tellSecurityChange(u: { email: string; name: string }, change: string) {
    sendInBackground(
      securityChangeEmail(env.APP_NAME, u.email, u.name, change, securityUrl),
      'security change',
    );
  }

  /** Records the device of a new session; a device the account has not used before is e-mailed. */
  async function noteDevice(s: {
    userId: string;
    userAgent?: string | null;
    ipAddress?: string | null;
  }) {
    const hash = deviceHash(s.userAgent);
    const rows = await queryRows<{ inserted: boolean; others: number }>(
      db,
      sql`
      WITH upsert AS (
        INSERT INTO known_device (user_id, device_hash) VALUES (${s.userId}, ${hash})
        ON CONFLICT (user_id, device_hash) DO UPDATE SET last_seen_at = now()
        RETURNING (xmax = 0) AS inserted
      )
      SELECT upsert.inserted,
        (SELECT count(*)::int FROM known_device WHERE user_id = ${s.userId} AND device_hash <> ${hash}) AS others
      FROM upsert`,
    );
    const row = rows[0];
    // The first device of an account is where it was created: nothing to report.
    if (!row?.inserted || row.others === 0) return;
    const [owner] = await db
      .select({ email: user.email, name: user.name })
      .from(user)
      .where(eq(user.id, s.userId));
    if (!owner) return;
    const device = describeDevice(s.userAgent, s.ipAddress ?? null);
    sendInBackground(
      newSignInEmail(
        env.APP_NAME,
        owner.email,
        owner.name,
        {
          when: new Date().toISOString().slice(0, 16).replace('T', ' '),
          device: device.browser,
          place: device.place,
        },
        securityUrl,
      ),
      'new sign-in',
    );
  }

  /** The account a second-factor attempt is for: the pending sign-in's, or the session's. */
  async function secondFactorUser(ctx: Parameters<Parameters<typeof createAuthMiddleware>[0]>[0]) {
    const session = await getSessionFromCtx(ctx).catch(() => null);
    if (session) return session.user.id;
    const cookie = ctx.context.createAuthCookie('two_factor');
    const identifier = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
    if (!identifier) return null;
    const pending = await ctx.context.internalAdapter.findVerificationValue(identifier);
    return pending?.value ?? null;
  }

  /** Once per lock: tells the owner their second factor locked after repeated wrong codes. */
  async function reportLockout(userId: string) {
    const [row] = await db
      .select({ lockedUntil: twoFactorTable.lockedUntil, email: user.email, name: user.name })
      .from(twoFactorTable)
      .innerJoin(user, eq(user.id, twoFactorTable.userId))
      .where(eq(twoFactorTable.userId, userId));
    if (!row?.lockedUntil || row.lockedUntil.getTime() <= Date.now()) return;
    const first = await queryRows(
      db,
      sql`
      INSERT INTO consumed_token (token_hash, purpose)
      VALUES (${hashToken(`2fa-lock:${userId}:${row.lockedUntil.toISOString()}`)}, 'two-factor-lock')
      ON CONFLICT (token_hash) DO NOTHING RETURNING token_hash`,
    );
    if (first.length === 0) return;
    tellSecurityChange(
      row,
      `Hubo ${TWO_FACTOR_LOCKOUT.maxFailedAttempts} intentos seguidos con un código de verificación incorrecto, así que bloqueamos la verificación en dos pasos de tu cuenta durante ${TWO_FACTOR_LOCKOUT.durationSeconds / 60} minutos.`,
    );
  }

  // Filled below, once the endpoints exist: Better Auth keeps this same array in its options.
  const disabledPaths: string[] = [];
  const auth = betterAuth({
    appName: env.APP_NAME,
    baseURL: env.APP_URL,
    basePath: '/api/auth',
    secret: env.AUTH_SECRET,
    trustedOrigins: trustedOrigins(env),
    telemetry: { enabled: false },
    disabledPaths,
    logger: {
      level: 'warn',
      log: (level, message, ...args: unknown[]) => {
        const child = logger.child({ component: 'better-auth' });
        const details = args.length ? { details: args } : {};
        if (level === 'error') child.error(details, message);
        else if (level === 'warn') child.warn(details, message);
        else if (level === 'info') child.info(details, message);
        else child.debug(details, message);
      },
    },
    onAPIError: {
      // Expected refusals (wrong password, bad origin…) are not errors of the server.
      onError: (error) => {
        const e = error as { status?: unknown; message?: unknown };
        if (e.status === 'INTERNAL_SERVER_ERROR' || !(error instanceof APIError))
          logger.error({ err: error }, 'auth error');
        else logger.debug({ status: e.status, message: e.message }, 'auth refusal');
      },
    },
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: { user, session, account, verification, twoFactor: twoFactorTable, knownDevice },
      transaction: true,
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      // docs/domain.md has a signed-in-but-unverified state (only /verify-email); every
      // protected API answers 403 until the e-mail is verified (see docs/decisions/0004).
      requireEmailVerification: false,
      // Sign-up never signs in: a new address and one that already has an account get the
      // same answer, without a cookie; the verification link signs the person in
      // (autoSignInAfterVerification). See docs/decisions/0010.
      autoSignIn: false,
      // Called instead of creating a second account, after the same password hashing a new
      // account costs. The owner hears of it; the caller gets SIGN_UP_ANSWER like anyone.
      onExistingUserSignUp: async ({ user: u }) => {
        sendInBackground(
          signUpAttemptEmail(env.APP_NAME, u.email, u.name, {
            login: `${env.APP_URL}/login`,
            recover: `${env.APP_URL}/recuperar`,
          }),
          'sign-up attempt',
        );
      },
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 30 * 60,
      sendResetPassword: async ({ user: u, url }) => {
        sendInBackground(resetPasswordEmail(env.APP_NAME, u.email, u.name, url), 'reset');
      },
      onPasswordReset: async ({ user: u }) => {
        // A new password also ends the browsers trusted to skip the second factor.
        await endTrustedDevices(db, u.id);
        sendInBackground(
          passwordChangedEmail(env.APP_NAME, u.email, u.name, `${env.APP_URL}/login`),
          'password changed',
        );
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: 60 * 60,
      sendVerificationEmail: async ({ user: u, url }) => {
        sendInBackground(verificationEmail(env.APP_NAME, u.email, u.name, url), 'verification');
      },
    },
    // The name rule of NameSchema on every write of a user row, whichever endpoint (sign-up,
    // update-user, admin create-user / update-user) or server call makes it. Nothing is
    // written when it throws.
    databaseHooks: {
      user: {
        create: {
          // An e-mail link or code creates the account with no name: the address's local part.
          before: async (data, ctx) => {
            const given = typeof data.name === 'string' ? data.name.trim() : '';
            const named =
              given === '' && PASSWORDLESS_SIGN_IN.has(ctx?.path ?? '')
                ? nameFromEmail(data.email)
                : data.name;
            return { data: { ...data, name: checkedName(named) } };
          },
        },
        update: {
          before: async (data) =>
            'name' in data ? { data: { ...data, name: checkedName(data.name) } } : undefined,
          after: async (u, ctx) => {
            const path = ctx?.path ?? '';
            if (path === '/two-factor/verify-totp' || path === '/two-factor/disable') {
              const enabled =
                (u as { twoFactorEnabled?: boolean | null }).twoFactorEnabled === true;
              if (path === '/two-factor/disable' && !enabled) {
                // Browsers trusted under the old second factor must not skip a new one.
                await endTrustedDevices(db, u.id);
                tellSecurityChange(u, 'Se desactivó la verificación en dos pasos de tu cuenta.');
              }
              if (path === '/two-factor/verify-totp' && enabled)
                tellSecurityChange(u, 'Se activó la verificación en dos pasos de tu cuenta.');
            }
          },
        },
      },
      session: {
        create: {
          after: async (s) => {
            if ((s as { impersonatedBy?: string | null }).impersonatedBy) return;
            await noteDevice(s).catch((err: unknown) =>
              logger.warn({ err }, 'could not record the sign-in device'),
            );
          },
        },
      },
      verification: {
        create: {
          // SMS codes are stored hashed, like e-mail codes (the plugin writes `<code>:0`); they
          // are checked against the hash by the phone-number plugin's verifyOTP below.
          before: async (data) => {
            const sent = /^(\d{6}):0$/.exec(String(data.value));
            if (!String(data.identifier).startsWith(PHONE_CODE_PREFIX) || !sent?.[1]) return;
            return { data: { ...data, value: `${phoneCodeHash(env.AUTH_SECRET, sent[1])}:0` } };
          },
        },
      },
      account: {
        create: {
          after: async (a) => {
            if (a.providerId === 'credential') return;
            const [owner] = await db
              .select({ email: user.email, name: user.name, createdAt: user.createdAt })
              .from(user)
              .where(eq(user.id, a.userId));
            // An account created by this very sign-in is not a change to report.
            if (!owner || Date.now() - owner.createdAt.getTime() < 60_000) return;
            tellSecurityChange(
              owner,
              `Se vinculó ${providerLabel(env, a.providerId)} a tu cuenta para iniciar sesión.`,
            );
          },
        },
      },
    },
    account: {
      accountLinking: {
        enabled: true,
        // Only when both sides verified the address (Better Auth's requireLocalEmailVerified
        // default, kept explicit): otherwise the person signs in first and links from Mi perfil.
        requireLocalEmailVerified: true,
        trustedProviders: [],
        allowDifferentEmails: true,
      },
    },
    user: {
      changeEmail: {
        enabled: true,
        // The current address approves first; the new one then gets a verification link.
        sendChangeEmailConfirmation: async ({ user: u, newEmail, url }) => {
          sendInBackground(
            changeEmailConfirmationEmail(env.APP_NAME, u.email, u.name, newEmail, url),
            'change e-mail',
          );
        },
      },
    },
    ...(env.google
      ? {
          socialProviders: {
            google: {
              clientId: env.google.clientId,
              clientSecret: env.google.clientSecret,
              prompt: 'select_account' as const,
            },
          },
        }
      : {}),
    session: {
      expiresIn: ttl,
      // Renewed when used after this age; the client also asks 5 minutes before expiry.
      updateAge: Math.min(60 * 60 * 24, Math.floor(ttl / 2)),
      cookieCache: { enabled: false },
    },
    rateLimit: {
      enabled: true,
      window: rule.window,
      max: 200,
      customRules: {
        '/sign-in/email': rule,
        '/sign-up/email': rule,
        '/request-password-reset': rule,
        '/reset-password': rule,
        '/send-verification-email': rule,
        '/verify-email': rule,
        '/sign-in/magic-link': rule,
        '/sign-in/social': rule,
        '/link-social': rule,
        '/magic-link/verify': rule,
        '/email-otp/send-verification-otp': rule,
        '/sign-in/email-otp': rule,
        '/phone-number/send-otp': rule,
        '/phone-number/verify': rule,
        // The plugin's own 3 per 10 s would stop an office behind one address; wrong codes are
        // bounded by its lock-out (TWO_FACTOR_LOCKOUT) anyway.
        '/two-factor/*': rule,
        '/get-session': false,
      },
      customStorage: { consume: (key, r) => consumeRateLimit(db, `ip:${key}`, r) },
    },
    advanced: {
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      useSecureCookies: env.APP_URL.startsWith('https://'),
      // Better Auth skips the Origin check under test runners by default; tests must see the real one.
      disableOriginCheck: false,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax' },
    },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        const body = (ctx.body ?? {}) as Record<string, unknown>;
        if (PER_ACCOUNT_LIMITED.has(ctx.path) && typeof body.email === 'string') {
          const key = `acct:${ctx.path}:${body.email.trim().toLowerCase()}`;
          const result = await consumeRateLimit(db, key, {
            window: env.RATE_LIMIT_WINDOW_SECONDS,
            max: env.RATE_LIMIT_MAX_PER_ACCOUNT,
          });
          if (!result.allowed) {
            throw new APIError(
              'TOO_MANY_REQUESTS',
              {
                code: 'RATE_LIMITED',
                message: 'Demasiados intentos. Espera un momento e inténtalo de nuevo.',
              },
              { 'Retry-After': String(result.retryAfter ?? 60) },
            );
          }
        }
        if (PER_NUMBER_LIMITED.has(ctx.path) && typeof body.phoneNumber === 'string') {
          const key = `acct:${ctx.path}:${body.phoneNumber.trim()}`;
          const result = await consumeRateLimit(db, key, {
            window: env.RATE_LIMIT_WINDOW_SECONDS,
            max: env.RATE_LIMIT_MAX_PER_ACCOUNT,
          });
          if (!result.allowed) {
            throw new APIError(
              'TOO_MANY_REQUESTS',
              {
                code: 'RATE_LIMITED',
                message: 'Demasiados intentos. Espera un momento e inténtalo de nuevo.',
              },
              { 'Retry-After': String(result.retryAfter ?? 60) },
            );
          }
        }
        if (
          ctx.path === '/phone-number/verify' &&
          body.updatePhoneNumber !== true &&
          typeof body.phoneNumber === 'string'
        ) {
          // Signing in with a number no account has verified: the same answer as a wrong code
          // (Better Auth would otherwise fail with a 500 looking for the account).
          const [owner] = await db
            .select({ id: user.id })
            .from(user)
            .where(and(eq(user.phoneNumber, body.phoneNumber), eq(user.phoneNumberVerified, true)));
          if (!owner) throw wrongPhoneCode();
        }
        if (ctx.path === '/email-otp/send-verification-otp' && body.type !== 'sign-in') {
          // Only sign-in codes are ever sent; a code of another kind would sit unused.
          throw new APIError('BAD_REQUEST', {
            code: 'VALIDATION_FAILED',
            message: 'Los códigos por correo solo sirven para entrar.',
            fields: { type: 'Los códigos por correo solo sirven para entrar.' },
          });
        }
        if (ctx.path === '/two-factor/verify-totp' && typeof body.code === 'string') {
          // A code counts once: its step must be newer than the last one the account used
          // (enrolment, sign-in, or our own routes, which call this endpoint).
          const userId = await secondFactorUser(ctx).catch(() => null);
          const step = userId
            ? await totpStepOf(db, ctx.context.secretConfig, userId, body.code)
            : null;
          if (userId && step !== null && !(await claimTotpStep(db, userId, step))) {
            throw new APIError('UNAUTHORIZED', {
              code: 'INVALID_CODE',
              message: 'Ese código ya se usó. Espera al siguiente de tu aplicación.',
            });
          }
        }
        if (CONFIRMED_BY_SECOND_FACTOR.has(ctx.path)) {
          // The two-factor plugin asks an account with a password for it, and one without
          // (e-mail link or code, SMS, a provider) for nothing: here that account confirms with a
          // current code of its app, which counts once like every other.
          const current = await getSessionFromCtx(ctx).catch(() => null);
          const enabled =
            (current?.user as { twoFactorEnabled?: boolean | null } | undefined)
              ?.twoFactorEnabled === true;
          if (current && enabled && !(await hasPassword(db, current.user.id))) {
            const code = typeof body.code === 'string' ? body.code.replace(/\s/g, '') : '';
            const step = /^\d{6}$/.test(code)
              ? await totpStepOf(db, ctx.context.secretConfig, current.user.id, code)
              : null;
            if (step === null || !(await claimTotpStep(db, current.user.id, step))) {
              // 400 like a wrong password here: the session itself is fine.
              throw new APIError('BAD_REQUEST', {
                code: 'INVALID_CODE',
                message:
                  code === ''
                    ? 'Escribe el código de tu aplicación.'
                    : 'El código no es válido o ya se usó. Escribe el que muestra ahora tu aplicación.',
              });
            }
          }
        }
        if (ctx.path.startsWith('/admin/')) {
          // Better Auth's own admin endpoints follow the same rule as Cometa's admin routes.
          const current = await getSessionFromCtx(ctx).catch(() => null);
          const u = current?.user as
            { role?: string | null; twoFactorEnabled?: boolean | null } | undefined;
          if (isStaffRole(u?.role) && u?.twoFactorEnabled !== true) {
            throw new APIError('FORBIDDEN', {
              code: 'TWO_FACTOR_REQUIRED',
              message:
                'Las cuentas de administración deben activar la verificación en dos pasos antes de continuar.',
            });
          }
        }
        const passwordField = PASSWORD_FIELDS[ctx.path];
        const password = passwordField ? body[passwordField] : undefined;
        if (typeof password === 'string' && isCommonPassword(password)) {
          throw new APIError('BAD_REQUEST', {
            code: 'PASSWORD_TOO_COMMON',
            message: COMMON_PASSWORD_MESSAGE,
          });
        }
        if (ctx.path === '/sign-up/email') {
          // Checked before Better Auth looks the address up: a refused name must get the same
          // answer whether or not the address has an account (docs/decisions/0010).
          checkedName(body.name);
        }
        if (ctx.path === '/verify-email' && typeof ctx.query?.token === 'string') {
          // The callback is checked before the token is spent, and this hook's own redirect
          // (below) only ever goes to a path of this origin.
          const callback: unknown = ctx.query.callbackURL;
          const target =
            callback === undefined ? '/verify-email' : sameOriginPath(callback, env.APP_URL, null);
          if (target === null) {
            throw new APIError('FORBIDDEN', {
              code: 'INVALID_CALLBACK_URL',
              message: 'El enlace no es válido.',
            });
          }
          // Verification links are signed tokens; recording each one makes it single-use. The
          // record is a claim: the after hook withdraws it when the link did not verify, so only
          // a successful verification spends a token.
          const inserted = await queryRows(
            db,
            sql`
            INSERT INTO consumed_token (token_hash, purpose) VALUES (${hashToken(ctx.query.token)}, 'verify-email')
            ON CONFLICT (token_hash) DO NOTHING RETURNING token_hash`,
          );
          if (inserted.length === 0) {
            throw ctx.redirect(withErrorParam(target, 'LINK_USED', env.APP_URL));
          }
        }
      }),
      after: createAuthMiddleware(async (ctx) => {
        if (
          ctx.path === '/verify-email' &&
          typeof ctx.query?.token === 'string' &&
          !verifiedByLink(ctx.context.returned)
        ) {
          // Refused (a damaged or expired token, a refused page to go to…): the token is not
          // spent, so the intact link still verifies while it is valid.
          await queryRows(
            db,
            sql`DELETE FROM consumed_token WHERE token_hash = ${hashToken(ctx.query.token)} AND purpose = 'verify-email'`,
          );
        }
        // A new address and one that already has an account answer alike (no user, no id).
        if (ctx.path === '/sign-up/email' && !isAPIError(ctx.context.returned)) {
          return ctx.json(SIGN_UP_ANSWER);
        }
        if (
          (ctx.path === '/two-factor/verify-totp' ||
            ctx.path === '/two-factor/verify-backup-code') &&
          isAPIError(ctx.context.returned)
        ) {
          const userId = await secondFactorUser(ctx).catch(() => null);
          if (userId) await reportLockout(userId);
        }
        if (ctx.path === '/unlink-account' && !isAPIError(ctx.context.returned)) {
          const current = ctx.context.session ?? (await getSessionFromCtx(ctx).catch(() => null));
          if (current)
            tellSecurityChange(
              current.user,
              'Se desvinculó un proveedor de inicio de sesión (Google u OpenID Connect) de tu cuenta.',
            );
        }
        if (ctx.path === '/change-password' && !isAPIError(ctx.context.returned)) {
          const current = ctx.context.session ?? (await getSessionFromCtx(ctx).catch(() => null));
          if (current) {
            // A new password also ends the browsers trusted to skip the second factor.
            await endTrustedDevices(db, current.user.id);
            tellSecurityChange(current.user, 'Se cambió la contraseña de tu cuenta.');
          }
        }
      }),
    },
    plugins: [
      admin({
        defaultRole: 'customer',
        adminRoles: ['admin'],
        bannedUserMessage: 'Esta cuenta está bloqueada. Escríbenos desde la página de contacto.',
      }),
      magicLink({
        expiresIn: CODE_TTL_SECONDS,
        storeToken: 'hashed',
        sendMagicLink: async ({ email, url }) => {
          sendInBackground(magicLinkEmail(env.APP_NAME, email, url), 'magic link');
        },
      }),
      emailOTP({
        otpLength: 6,
        expiresIn: CODE_TTL_SECONDS,
        allowedAttempts: CODE_ATTEMPTS,
        storeOTP: 'hashed',
        sendVerificationOTP: async ({ email, otp, type }) => {
          if (type === 'sign-in') {
            sendInBackground(signInCodeEmail(env.APP_NAME, email, otp), 'sign-in code');
          }
        },
      }),
      phoneNumber({
        otpLength: 6,
        expiresIn: CODE_TTL_SECONDS,
        allowedAttempts: CODE_ATTEMPTS,
        phoneNumberValidator: (value) => PHONE_NUMBER.test(value),
        sendOTP: async ({ phoneNumber: number, code }, ctx) => {
          // Codes go only to a number that can use them: one a signed-in person is adding, or
          // one an account has verified. Anyone else gets the same answer and no SMS (no
          // texting strangers at our cost, nothing learnt about who has an account).
          const signedIn = ctx ? await getSessionFromCtx(ctx).catch(() => null) : null;
          if (!signedIn) {
            const [owner] = await db
              .select({ id: user.id })
              .from(user)
              .where(and(eq(user.phoneNumber, number), eq(user.phoneNumberVerified, true)));
            if (!owner) return;
          }
          await sms.send({
            to: number,
            text: `${env.APP_NAME}: tu código es ${code}. Caduca en 10 minutos. No lo compartas con nadie.`,
          });
        },
        // The code is checked here, against its hash: single use, and CODE_ATTEMPTS wrong ones
        // void it. Taking the row is the race gate: of two requests with the code, one wins.
        verifyOTP: async ({ phoneNumber: number, code }, ctx) => {
          if (!ctx) throw wrongPhoneCode();
          const identifier = `${PHONE_CODE_PREFIX}${number}`;
          const row = await ctx.context.internalAdapter.consumeVerificationValue(identifier);
          if (!row) throw wrongPhoneCode();
          const [stored = '', tries = '0'] = row.value.split(':');
          const attempts = Number.parseInt(tries, 10) || 0;
          const hash = phoneCodeHash(env.AUTH_SECRET, code);
          if (attempts < CODE_ATTEMPTS && constantTimeEqual(stored, hash)) return true;
          if (attempts + 1 < CODE_ATTEMPTS) {
            await ctx.context.internalAdapter.createVerificationValue({
              identifier,
              value: `${stored}:${attempts + 1}`,
              expiresAt: row.expiresAt,
            });
          }
          throw wrongPhoneCode();
        },
        callbackOnVerification: async ({ user: u }, ctx) => {
          if (ctx?.body && (ctx.body as { updatePhoneNumber?: unknown }).updatePhoneNumber === true)
            tellSecurityChange(
              u,
              'Se añadió un teléfono verificado a tu cuenta: ahora puedes entrar con un código por SMS.',
            );
        },
      }),
      withSecondFactorEverywhere(
        twoFactor({
          issuer: env.APP_NAME,
          allowPasswordless: true,
          trustDeviceMaxAge: TRUST_DEVICE_SECONDS,
          backupCodeOptions: { amount: 10, length: 10 },
          accountLockout: { enabled: true, ...TWO_FACTOR_LOCKOUT },
        }),
      ),
      secondFactorRedirects(),
      ...(env.oidc
        ? [
            genericOAuth({
              config: [
                {
                  providerId: 'oidc',
                  discoveryUrl: `${env.oidc.issuer}/.well-known/openid-configuration`,
                  clientId: env.oidc.clientId,
                  clientSecret: env.oidc.clientSecret,
                  scopes: ['openid', 'email', 'profile'],
                  pkce: true,
                },
              ],
            }),
          ]
        : []),
    ],
  });
  disabledPaths.push(...unusedAuthPaths(auth.api));
  // Requests read their session through one joined query (docs/decisions/0015).
  registerSessionLookup(auth, db);
  return auth;
}

export type Auth = ReturnType<typeof createAuth>;

/** The name people know a provider by. */
export function providerLabel(env: Env, providerId: string): string {
  if (providerId === 'google') return 'Google';
  if (providerId === 'oidc') return env.oidc?.name ?? 'OIDC';
  if (providerId === 'credential') return 'la contraseña';
  return providerId;
}
