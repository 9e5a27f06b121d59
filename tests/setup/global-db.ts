// Migrates the schema once per test run: a PGlite snapshot every test file loads, and, when
// TEST_DATABASE_URL is set, a PostgreSQL template database every test file clones.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../../server/db/client';
import { migrateDatabase } from '../../server/db/migrate';

/**
 * Database names start with this prefix (TEST_DB_PREFIX, default `cometa`), so that two
 * checkouts can run their tests against one server without dropping each other's databases.
 */
export const TEST_DB_PREFIX = (process.env.TEST_DB_PREFIX ?? 'cometa').replace(/[^a-z0-9_]/g, '');
export const TEMPLATE_DB = `${TEST_DB_PREFIX}_test_template`;

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  export interface ProvidedContext {
    pgliteSnapshot: string;
    postgresTemplateUrl: string | null;
  }
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cometa-test-'));
  const client = await PGlite.create();
  const database = openPglite(client);
  await migrateDatabase(database);
  const dump = await client.dumpDataDir('none');
  const snapshot = path.join(dir, 'pglite-snapshot.tar');
  writeFileSync(snapshot, Buffer.from(await dump.arrayBuffer()));
  await client.close();
  project.provide('pgliteSnapshot', snapshot);

  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) {
    project.provide('postgresTemplateUrl', null);
    return;
  }
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  // Leftover clones from an interrupted run.
  const stale = await admin.query<{ datname: string }>(
    `SELECT datname FROM pg_database WHERE datname LIKE '${TEST_DB_PREFIX}\\_t\\_%'`,
  );
  for (const row of stale.rows)
    await admin.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
  await admin.end();
  const templateUrl = withDatabase(baseUrl, TEMPLATE_DB);
  const template = openPostgres(templateUrl, { max: 1 });
  await migrateDatabase(template);
  await template.close();
  project.provide('postgresTemplateUrl', templateUrl);
}
