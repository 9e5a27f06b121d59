import { ensureJobSchema } from '../jobs/queue';
import type { Database } from './client';

/** Our tables (drizzle migrations), then the job queue's schema and queues. Idempotent. */
export async function migrateDatabase(database: Database): Promise<void> {
  await database.migrate();
  await ensureJobSchema(database.executeSql);
}
