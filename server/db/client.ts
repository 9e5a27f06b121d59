import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations, SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { schema, type Schema } from './schema';

export type Db = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

/** Positional-parameter SQL (`$1`…), as the job queue (pg-boss) sends it. */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Raw SQL outside any transaction, for the job queue. */
  executeSql: ExecuteSql;
  /** Runs pending migrations (idempotent, safe with several instances starting at once). */
  migrate: () => Promise<void>;
  close: () => Promise<void>;
};

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Any fixed number: every instance takes the same advisory lock around migrations. */
const MIGRATION_LOCK_ID = 724_110_001;

export function openPostgres(
  url: string,
  options: { max?: number; onIdleError?: (err: Error) => void } = {},
): Database {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10 });
  // An idle connection can be dropped by the server (restart, failover, admin shutdown).
  // Without a listener, pg emits that as an unhandled 'error' and the process dies; the pool
  // simply replaces the connection on the next query.
  pool.on(
    'error',
    options.onIdleError ??
      ((err) => process.stderr.write(`postgres idle connection error: ${err.message}\n`)),
  );
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    executeSql: (text, values) => pool.query(text, values),
    async migrate() {
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        await migratePg(drizzlePg(client, { schema }), { migrationsFolder: MIGRATIONS_DIR });
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

export function openPglite(client: PGlite): Database {
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    // PGlite serialises every query and transaction itself, so the queue's statements never run
    // inside one of ours. Several statements in one string (pg-boss's locked blocks and schema
    // changes) go through exec(), which takes no parameters.
    async executeSql(text, values) {
      if (values && values.length > 0) return client.query(text, values);
      const results = await client.exec(text);
      return results.at(-1) ?? { rows: [] };
    },
    migrate: () =>
      migratePglite(drizzlePglite(client, { schema }), { migrationsFolder: MIGRATIONS_DIR }),
    close: () => client.close(),
  };
}

/** PostgreSQL when DATABASE_URL is set, otherwise the embedded database in DATA_DIR/db. */
export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string;
  poolMax?: number;
}): Promise<Database> {
  if (options.databaseUrl)
    return openPostgres(options.databaseUrl, {
      ...(options.poolMax ? { max: options.poolMax } : {}),
    });
  const client = await PGlite.create(path.join(options.dataDir, 'db'));
  return openPglite(client);
}

/**
 * Positional SQL (`$1`…) run on the connection of one of our transactions, exactly as written:
 * the job queue inserts its jobs this way, so a job commits or rolls back with the change that
 * asked for it. Drizzle keeps that connection as `session.client` on both drivers (a pool client
 * for node-postgres, PGlite's transaction object); both answer `query(text, values)`.
 */
export function executeSqlIn(tx: Tx): ExecuteSql {
  const client = (tx as unknown as { session?: { client?: unknown } }).session?.client;
  const query = (client as { query?: unknown } | undefined)?.query;
  if (typeof query !== 'function') throw new Error('transaction connection not reachable');
  return (text, values) =>
    (query as (t: string, v?: unknown[]) => Promise<{ rows: unknown[] }>).call(
      client,
      text,
      values,
    );
}

/** Runs raw SQL and returns its rows (node-postgres and PGlite both answer `{ rows }`). */
/**
 * The SQLSTATE of a PostgreSQL error (e.g. 23505 unique_violation, or the CM… codes our
 * functions raise), looked up through the wrappers the driver and Drizzle put around it.
 */
export function pgErrorCode(err: unknown): string | null {
  let current: unknown = err;
  for (let depth = 0; current && depth < 5; depth += 1) {
    if (typeof current === 'object' && 'code' in current && typeof current.code === 'string')
      return /^[0-9A-Z]{5}$/.test(current.code) ? current.code : null;
    current = typeof current === 'object' && 'cause' in current ? current.cause : undefined;
  }
  return null;
}

export async function queryRows<T>(db: Db | Tx, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: T[] }).rows;
}
