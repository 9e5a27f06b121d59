// After `npm run build`: for every prerendered page in build/client (each `index.html`), sums the
// brotli size of the JavaScript and CSS the page loads before it is interactive — every
// `/assets/*.js|css` the HTML references (modulepreload, script, stylesheet, the inline module
// imports) plus, transitively, the chunks those import statically — and fails past the budget.
// Chunks a page loads later with `import()` (the session store, a form) are not counted here;
// `npm run lighthouse` sees those.
//
//   node scripts/bundle-budget.mjs            table, exit 1 past the budget
//   node scripts/bundle-budget.mjs --chunks   the same, with each page's chunks
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../build/client');
/**
 * Brotli bytes, per page. 104 KB of JavaScript: the SPA's 100 KB, plus the hydration of a
 * server-rendered app (the session snapshot adopted before hydrating, docs/decisions/0016), the
 * page's time zone read before the first render (so dates match the server's HTML), and the
 * route manifest, which grows with every screen (routeDiscovery "initial"; the staff screens of
 * issue 20 added ~0.4 KB). Since docs/decisions/0019 these modules load after the first paint.
 */
export const BUDGET = { js: 104 * 1024, css: 15 * 1024 };

const showChunks = process.argv.includes('--chunks');

if (!existsSync(path.join(ROOT, 'index.html'))) {
  console.error('bundle-budget: build/client/index.html is missing; run `npm run build` first.');
  process.exit(1);
}

function htmlPages(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (name === 'assets') return [];
    if (statSync(full).isDirectory()) return htmlPages(full);
    return name === 'index.html' ? [full] : [];
  });
}

const brotliCache = new Map();
function brotliSize(file) {
  let size = brotliCache.get(file);
  if (size === undefined) {
    size = zlib.brotliCompressSync(readFileSync(file), {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY },
    }).length;
    brotliCache.set(file, size);
  }
  return size;
}

const ASSET_IN_HTML = /["'(](\/assets\/[^"'()\s]+?\.(?:js|css))["')]/g;
// Static imports only: `import{a}from"./x.js"`, `import"./x.js"`, `export*from"./x.js"`; a
// dynamic `import("./x.js")` has a parenthesis and is loaded later, on demand.
const STATIC_IMPORT = /(?:\bfrom|\bimport)\s*["'](\.\.?\/[^"']+?\.js)["']/g;

function staticClosure(entries) {
  const seen = new Set();
  const queue = [...entries];
  while (queue.length > 0) {
    const url = queue.shift();
    if (seen.has(url)) continue;
    seen.add(url);
    if (!url.endsWith('.js')) continue;
    const file = path.join(ROOT, url);
    if (!existsSync(file)) throw new Error(`bundle-budget: ${url} is referenced but missing`);
    for (const match of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      queue.push(path.posix.join(path.posix.dirname(url), match[1]));
    }
  }
  return [...seen];
}

const kb = (bytes) => (bytes / 1024).toFixed(1);
const rows = [];
for (const file of htmlPages(ROOT).sort()) {
  const page = `/${path.relative(ROOT, path.dirname(file)).split(path.sep).join('/')}`;
  const html = readFileSync(file, 'utf8');
  const referenced = [...html.matchAll(ASSET_IN_HTML)].map((m) => m[1]);
  const assets = staticClosure([...new Set(referenced)]);
  const sizes = assets.map((url) => ({ url, br: brotliSize(path.join(ROOT, url)) }));
  const js = sizes.filter((a) => a.url.endsWith('.js'));
  const css = sizes.filter((a) => a.url.endsWith('.css'));
  const sum = (list) => list.reduce((total, a) => total + a.br, 0);
  rows.push({ page, js: sum(js), jsCount: js.length, css: sum(css), cssCount: css.length, sizes });
}

const over = (row) => row.js > BUDGET.js || row.css > BUDGET.css;
const header = ['page', 'JS (brotli)', 'chunks', 'CSS (brotli)', 'files', ''];
const lines = rows.map((row) => [
  row.page === '/.' ? '/' : row.page,
  `${kb(row.js)} KB`,
  String(row.jsCount),
  `${kb(row.css)} KB`,
  String(row.cssCount),
  over(row) ? 'OVER BUDGET' : 'ok',
]);
const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
const format = (cells) =>
  cells
    .map((cell, i) =>
      i === 0 || i === cells.length - 1 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]),
    )
    .join('  ')
    .trimEnd();
console.log(
  `Bundle budget per prerendered page: JS ≤ ${kb(BUDGET.js)} KB, CSS ≤ ${kb(BUDGET.css)} KB (brotli)`,
);
console.log(format(header));
for (const line of lines) console.log(format(line));

if (showChunks) {
  for (const row of rows) {
    console.log(`\n${row.page === '/.' ? '/' : row.page}`);
    for (const a of [...row.sizes].sort((x, y) => y.br - x.br))
      console.log(`  ${kb(a.br).padStart(6)} KB  ${a.url}`);
  }
}

const failing = rows.filter(over);
if (failing.length > 0) {
  console.error(
    `\nbundle-budget: ${failing.length} page(s) over budget: ${failing.map((r) => (r.page === '/.' ? '/' : r.page)).join(', ')}`,
  );
  process.exit(1);
}

// Modules start after the first paint (web/lib/scripts-after-paint.ts) and the stylesheet is in
// the page (web/lib/inline-stylesheet.ts): a page that still preloads from its head, runs its
// module script at once or links an enabled stylesheet means React Router's output changed shape
// and a rewrite no longer applies.
const unrewritten = rows.filter((row) => {
  const html = readFileSync(path.join(ROOT, row.page, 'index.html'), 'utf8');
  return (
    /<link rel="modulepreload"/.test(html) ||
    /<script[^>]* type="module"/.test(html) ||
    /<link rel="stylesheet"(?![^>]*disabled)/.test(html) ||
    !html.includes('<style data-href="/assets/')
  );
});
if (unrewritten.length > 0) {
  console.error(
    `\nbundle-budget: ${unrewritten.map((r) => (r.page === '/.' ? '/' : r.page)).join(', ')} start their modules or stylesheet from the head (web/lib/scripts-after-paint.ts or web/lib/inline-stylesheet.ts did not apply)`,
  );
  process.exit(1);
}
