// `npm start`: start the server (embedded database unless DATABASE_URL is set), with the local
// mailbox on when the app is only on this machine (scripts/dev-mailbox.mjs). When the web app is
// missing or was built for another APP_NAME, it is built beside the running server: the API
// answers at once and pages say «se está preparando» until the build is complete
// (server/lib/pending-build.ts), which the stamp written after the build marks.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { withDevMailboxDefault } from './dev-mailbox.mjs';

const stamp = 'build/.app-name';
const appName = process.env.APP_NAME?.trim() || 'Cometa';
const built =
  existsSync('build/client/index.html') &&
  existsSync('build/server/index.js') &&
  existsSync(stamp) &&
  readFileSync(stamp, 'utf8') === appName;

const env = withDevMailboxDefault(process.env);
if (!built) {
  rmSync(stamp, { force: true });
  env.WEB_BUILD_PENDING = 'true';
}
const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
  stdio: 'inherit',
  env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));

if (!built) {
  console.log(`Building the web app for "${appName}" (pages are served once it is ready)…`);
  const started = Date.now();
  const output = [];
  const build = spawn('npm', ['run', '--silent', 'build'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: process.env,
  });
  build.stdout.on('data', (chunk) => output.push(chunk));
  build.stderr.on('data', (chunk) => output.push(chunk));
  build.on('exit', (code) => {
    if (code === 0) {
      writeFileSync(stamp, appName);
      console.log(`Web app built in ${Math.round((Date.now() - started) / 1000)} s.`);
      return;
    }
    process.stderr.write(Buffer.concat(output));
    console.error(`The web app could not be built (npm run build exited with ${code}).`);
    child.kill('SIGTERM');
    process.exitCode = 1;
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => build.kill(signal));
}
