// node scripts/profile-top.mjs FILE.cpuprofile [N] — the top entries of a V8 CPU profile (as
// written by `node --cpu-prof`): self time per function and per package, in percent of samples.
import { readFileSync } from 'node:fs';

const [file, n = '25'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/profile-top.mjs FILE.cpuprofile [N]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const counts = new Map();
for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
const total = profile.samples.length;

/** A package name for a script URL: the node_modules package, node:internal, or the app. */
function packageOf(url) {
  if (!url) return '(native)';
  if (url.startsWith('node:')) return 'node:internal';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const app = url.match(/\/(server|shared|bench|tests)\//);
  return app ? `app:${app[1]}` : url;
}

const functions = new Map();
const packages = new Map();
for (const [id, count] of counts) {
  const { callFrame } = byId.get(id);
  const name = callFrame.functionName || '(anonymous)';
  const where = callFrame.url
    ? `${callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(server|shared|bench|tests)\//, '$1/')}:${callFrame.lineNumber + 1}`
    : '';
  const key = `${name} ${where}`.trim();
  functions.set(key, (functions.get(key) ?? 0) + count);
  const pkg = ['(idle)', '(garbage collector)', '(program)'].includes(name)
    ? name
    : packageOf(callFrame.url);
  packages.set(pkg, (packages.get(pkg) ?? 0) + count);
}

const pct = (c) => `${((100 * c) / total).toFixed(1).padStart(5)} %`;
const top = (map, limit) => [...map].sort((a, b) => b[1] - a[1]).slice(0, limit);
console.log(
  `${file}: ${total} samples, ${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s`,
);
console.log('\nSelf time by package:');
for (const [k, c] of top(packages, 15)) console.log(`  ${pct(c)}  ${k}`);
console.log('\nSelf time by function:');
for (const [k, c] of top(functions, Number(n))) console.log(`  ${pct(c)}  ${k}`);
