import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { PRERENDERED_PATHS, isKnownPath } from '../../shared/routes';

export type WebAssets = {
  root: string;
  available: boolean;
  /** sha256 sources of every inline script in the prerendered HTML, for the CSP. */
  scriptHashes: string[];
  /** The HTML prerendered at build time for a path, if it is one of PRERENDERED_PATHS. */
  prerendered: (pathname: string) => string | null;
  /** What to answer when the app is not built: a notice, 404 for paths the app does not have. */
  missing: (pathname: string) => { html: string; status: 200 | 404 };
};

function htmlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...htmlFiles(full));
    else if (name.endsWith('.html')) out.push(full);
  }
  return out;
}

function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
    const body = match[1] ?? '';
    if (body.trim() === '') continue;
    hashes.push(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
  }
  return hashes;
}

const MISSING_BUILD_HTML = `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Cometa</title></head>
<body><p>La aplicación web no está construida. Ejecuta <code>npm run build</code> o <code>npm start</code>.</p></body></html>`;

function normalize(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

function missing(pathname: string): { html: string; status: 200 | 404 } {
  return { html: MISSING_BUILD_HTML, status: isKnownPath(normalize(pathname)) ? 200 : 404 };
}

/** No web app (yet): every page answers the "not built" notice. */
export function notBuilt(root: string): WebAssets {
  return { root, available: false, scriptHashes: [], prerendered: () => null, missing };
}

/** Loads the prerendered public pages of the built web app into memory (build/client). */
export function loadWebAssets(root: string): WebAssets {
  const prerendered = new Map<string, string>();
  for (const p of PRERENDERED_PATHS) {
    const file = path.join(root, p === '/' ? '' : p, 'index.html');
    if (existsSync(file)) prerendered.set(p, readFileSync(file, 'utf8'));
  }
  if (!prerendered.has('/')) return notBuilt(root);
  const hashes = new Set<string>();
  for (const file of htmlFiles(root))
    for (const h of inlineScriptHashes(readFileSync(file, 'utf8'))) hashes.add(h);
  return {
    root,
    available: true,
    scriptHashes: [...hashes],
    prerendered: (pathname) => prerendered.get(normalize(pathname)) ?? null,
    missing,
  };
}
