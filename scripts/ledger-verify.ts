// npm run ledger:verify — checks the ledger of the configured database (DATABASE_URL or DATA_DIR).
import { openDatabase } from '../server/db/client';
import { loadEnv } from '../server/env';
import { verifyLedger } from '../server/features/ledger/ledger.verify';

const env = loadEnv();
const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
try {
  await database.migrate();
  const report = await verifyLedger(database.db);
  console.log(
    `Checked ${report.accounts} accounts, ${report.transfers} transfers, ${report.entries} entries (${database.kind}).`,
  );
  console.log('- every cached balance equals the sum of its entries');
  console.log('- every transfer has two entries that cancel out and match its amount');
  console.log('- no customer balance is negative');
  console.log('- all balances sum to zero');
  if (report.problems.length > 0) {
    console.error(`\n${report.problems.length} problem(s):`);
    for (const p of report.problems) console.error(`  ${p}`);
    process.exitCode = 1;
  } else {
    console.log('\nLedger OK.');
  }
} finally {
  await database.close();
}
