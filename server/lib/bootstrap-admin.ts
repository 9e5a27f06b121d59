import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { user } from '../db/schema/auth';
import type { Auth } from './auth';
import type { Logger } from './logger';
import { isCommonPassword } from './passwords';

export const DEFAULT_ADMIN_EMAIL = 'admin@cometa.local';

/**
 * ADMIN_EMAIL + ADMIN_PASSWORD: that admin exists, verified, with role admin (an existing
 * account keeps its password). Without them, on a first start (no admin at all), an admin
 * with a random password is created and the password printed once.
 */
export async function ensureAdmin(deps: {
  db: Db;
  auth: Auth;
  logger: Logger;
  email: string | undefined;
  password: string | undefined;
  print?: (line: string) => void;
}): Promise<{ created: boolean; email: string; password?: string }> {
  const { db, auth } = deps;
  const print = deps.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  if (deps.email) {
    const email = deps.email.toLowerCase();
    const [existing] = await db.select({ id: user.id }).from(user).where(eq(user.email, email));
    if (existing) {
      await db
        .update(user)
        .set({ role: 'admin', emailVerified: true })
        .where(eq(user.id, existing.id));
      return { created: false, email };
    }
    if (!deps.password)
      throw new Error('ADMIN_EMAIL is set for a new account: set ADMIN_PASSWORD too.');
    if (isCommonPassword(deps.password))
      throw new Error('ADMIN_PASSWORD is one of the most common passwords: choose another.');
    await createAdmin(db, auth, email, deps.password);
    deps.logger.info({ email }, 'admin account created');
    return { created: true, email };
  }
  const [anyAdmin] = await db
    .select({ id: user.id })
    .from(user)
    .where(eq(user.role, 'admin'))
    .limit(1);
  if (anyAdmin) return { created: false, email: '' };
  const password = randomBytes(18).toString('base64url');
  await createAdmin(db, auth, DEFAULT_ADMIN_EMAIL, password);
  print('');
  print('  An administrator account was created (shown only this once):');
  print(`    e-mail:   ${DEFAULT_ADMIN_EMAIL}`);
  print(`    password: ${password}`);
  print('  Set ADMIN_EMAIL and ADMIN_PASSWORD to choose your own.');
  print('');
  return { created: true, email: DEFAULT_ADMIN_EMAIL, password };
}

/**
 * Creates the admin. Instances starting together may race to create the same account: the one
 * that loses finds it created and only makes sure it is a verified admin.
 */
async function createAdmin(db: Db, auth: Auth, email: string, password: string) {
  let id: string;
  try {
    const created = await auth.api.createUser({
      body: { email, password, name: 'Administrador', role: 'admin' },
    });
    id = created.user.id;
  } catch (err) {
    const [existing] = await db.select({ id: user.id }).from(user).where(eq(user.email, email));
    if (!existing) throw err;
    id = existing.id;
  }
  await db.update(user).set({ emailVerified: true, role: 'admin' }).where(eq(user.id, id));
}
