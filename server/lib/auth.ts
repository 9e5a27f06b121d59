import { createHash } from 'node:crypto';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api';
import { admin } from 'better-auth/plugins';
import { sql } from 'drizzle-orm';
import { NameSchema } from '../../shared/schemas/auth';
import { queryRows, type Db } from '../db/client';
import { account, session, user, verification } from '../db/schema/auth';
import type { Env } from '../env';
import { CLIENT_IP_HEADER } from './client-ip';
import {
  passwordChangedEmail,
  resetPasswordEmail,
  signUpAttemptEmail,
  verificationEmail,
} from './email-templates';
import type { Logger } from './logger';
import { mailAfterCommit } from './notify';
import type { MailMessage, Mailer } from './mail';
import { COMMON_PASSWORD_MESSAGE, isCommonPassword } from './passwords';
import { consumeRateLimit } from './rate-limit';
import { sameOriginPath } from './safe-redirect';

export type AuthDeps = { db: Db; env: Env; mailer: Mailer; logger: Logger };

/** Better Auth paths whose body carries an e-mail that gets its own per-account counter. */
const PER_ACCOUNT_LIMITED = new Set([
  '/sign-in/email',
  '/sign-up/email',
  '/request-password-reset',
  '/send-verification-email',
]);

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

export function createAuth({ db, env, mailer, logger }: AuthDeps) {
  // E-mails are sent without holding up the request; a failure is logged and the person
  // can ask again ("reenviar").
  function sendInBackground(message: MailMessage, what: string) {
    mailAfterCommit({ mailer, logger }, what, { to: message.to }, () => message);
  }

  const ttl = env.SESSION_TTL_SECONDS;
  const rule = { window: env.RATE_LIMIT_WINDOW_SECONDS, max: env.RATE_LIMIT_MAX_PER_IP };

  return betterAuth({
    appName: env.APP_NAME,
    baseURL: env.APP_URL,
    basePath: '/api/auth',
    secret: env.AUTH_SECRET,
    trustedOrigins: trustedOrigins(env),
    telemetry: { enabled: false },
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
      schema: { user, session, account, verification },
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
          before: async (data) => ({ data: { ...data, name: checkedName(data.name) } }),
        },
        update: {
          before: async (data) =>
            'name' in data ? { data: { ...data, name: checkedName(data.name) } } : undefined,
        },
      },
    },
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
          // Verification links are signed tokens; recording each one makes it single-use.
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
        // A new address and one that already has an account answer alike (no user, no id).
        if (ctx.path === '/sign-up/email' && !isAPIError(ctx.context.returned)) {
          return ctx.json(SIGN_UP_ANSWER);
        }
      }),
    },
    plugins: [admin({ defaultRole: 'customer', adminRoles: ['admin'] })],
  });
}

export type Auth = ReturnType<typeof createAuth>;
