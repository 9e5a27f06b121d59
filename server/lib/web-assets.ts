import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { PRERENDERED_PATHS, isKnownPath } from '../../shared/routes';

export type WebAssets = {
  root: string;
  available: boolean;
  /** sha256 sources of every inline script in the built HTML, for the CSP. */
  scriptHashes: string[];
  /** The HTML for a path and the status to answer with (404 for paths the app does not have). */
  page: (pathname: string) => { html: string; status: 200 | 404 };
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

/** Loads the built web app (React Router SPA with prerendered public pages) into memory. */
export function loadWebAssets(root: string): WebAssets {
  const fallbackFile = [path.join(root, '__spa-fallback.html'), path.join(root, 'index.html')].find(
    (f) => existsSync(f),
  );
  if (!fallbackFile) {
    return {
      root,
      available: false,
      scriptHashes: [],
      page: (pathname) => ({ html: MISSING_BUILD_HTML, status: isKnownPath(pathname) ? 200 : 404 }),
    };
  }
  const fallback = readFileSync(fallbackFile, 'utf8');
  const prerendered = new Map<string, string>();
  for (const p of PRERENDERED_PATHS) {
    const file = path.join(root, p === '/' ? '' : p, 'index.html');
    if (existsSync(file)) prerendered.set(p, readFileSync(file, 'utf8'));
  }
  const hashes = new Set<string>();
  for (const file of htmlFiles(root))
    for (const h of inlineScriptHashes(readFileSync(file, 'utf8'))) hashes.add(h);
  return {
    root,
    available: true,
    scriptHashes: [...hashes],
    page(pathname) {
      const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
      const html = prerendered.get(normalized);
      if (html) return { html, status: 200 };
      return { html: fallback, status: isKnownPath(normalized) ? 200 : 404 };
    },
  };
}
