// `npm start`: build the web app when it is missing or was built for another APP_NAME, then
// start the server (embedded database unless DATABASE_URL is set), with the local mailbox on
// when the app is only on this machine (scripts/dev-mailbox.mjs).
import { execSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { withDevMailboxDefault } from './dev-mailbox.mjs';

const stamp = 'build/.app-name';
const appName = process.env.APP_NAME?.trim() || 'Cometa';
const built =
  existsSync('build/client/index.html') &&
  existsSync('build/server/index.js') &&
  existsSync(stamp) &&
  readFileSync(stamp, 'utf8') === appName;
if (!built) {
  console.log(`Building the web app for "${appName}"…`);
  execSync('npm run --silent build', { stdio: 'inherit' });
  writeFileSync(stamp, appName);
}
const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
  stdio: 'inherit',
  env: withDevMailboxDefault(process.env),
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
