// Browser tests use Debian's Chromium (never a download during npm ci). On a fresh machine:
// install it where we may (root + apt-get), otherwise stop and say exactly what to run.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(path)) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = existsSync('/usr/bin/apt-get');
if (isRoot && hasApt) {
  console.log('Chromium not found: installing Debian package "chromium"…');
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', {
    stdio: 'inherit',
  });
  if (existsSync(path)) process.exit(0);
}
console.error(
  [
    `No Chromium at ${path}. Install one, then run the tests again:`,
    '  Debian/Ubuntu:  sudo apt-get install -y chromium',
    '  elsewhere:      npx playwright install chromium  and set CHROMIUM_PATH to its executable',
  ].join('\n'),
);
process.exit(1);
