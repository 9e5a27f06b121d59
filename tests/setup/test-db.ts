import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { openPglite, openPostgres, type Database } from '../../server/db/client';
import { TEST_DB_PREFIX } from './global-db';

export type DbTarget = 'pglite' | 'postgres';

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL is set. */
export function dbTargets(): DbTarget[] {
  return inject('postgresTemplateUrl') ? ['pglite', 'postgres'] : ['pglite'];
}

/** A fresh, migrated database for one test file: a PGlite clone or a PostgreSQL template clone. */
export async function openTestDatabase(target: DbTarget): Promise<Database> {
  if (target === 'pglite') {
    const snapshot = readFileSync(inject('pgliteSnapshot'));
    const client = await PGlite.create({ loadDataDir: new Blob([snapshot]) });
    return openPglite(client);
  }
  const templateUrl = inject('postgresTemplateUrl');
  if (!templateUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `${TEST_DB_PREFIX}_t_${randomBytes(6).toString('hex')}`;
  const adminUrl = new URL(templateUrl);
  adminUrl.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${new URL(templateUrl).pathname.slice(1)}`);
  await admin.end();
  const url = new URL(templateUrl);
  url.pathname = `/${name}`;
  // The clone is dropped WITH (FORCE) at the end: connections it ends are expected.
  const database = openPostgres(url.toString(), { max: 20, onIdleError: () => undefined });
  return {
    ...database,
    async close() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: adminUrl.toString() });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
