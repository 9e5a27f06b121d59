import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The repository explains itself: code, comments and docs point to files inside it
// (docs/architecture.md, docs/domain.md, docs/protocols.md, docs/decisions/), never to design
// notes, specifications or reference material kept elsewhere. This test walks the sources and
// lists every line that still does.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Folders walked, and top-level files read, relative to the repository root. */
const ROOTS = ['server', 'web', 'shared', 'tests', 'scripts', 'bench', 'docs'];
const TOP_LEVEL_EXTENSIONS = new Set(['.md', '.ts', '.js', '.mjs', '.cjs', '.json']);
const TOP_LEVEL_SKIPPED = new Set(['package-lock.json']);

/** Never walked: dependencies, build output, local data, generated migration snapshots. */
const SKIPPED_DIRS = new Set([
  'node_modules',
  'build',
  'data',
  '.react-router',
  'test-results',
  'playwright-report',
]);
const SKIPPED_PATHS = new Set([path.join('server', 'db', 'migrations', 'meta')]);

const TEXT_EXTENSIONS = new Set([
  '.ts',
  '.tsx',
  '.js',
  '.mjs',
  '.cjs',
  '.md',
  '.json',
  '.sql',
  '.sh',
  '.css',
  '.html',
  '.yml',
  '.yaml',
  '.txt',
]);

// Built from pieces so that this file does not match its own patterns.
const DOT_MD = '.' + 'md';
const SPEC_WORD = 'SP' + 'EC';
const OUTSIDE_NAMES: RegExp[] = [
  new RegExp(`DESIGN${escape(DOT_MD)}`),
  new RegExp(`${SPEC_WORD}${escape(DOT_MD)}`),
  new RegExp(`${SPEC_WORD} \u00a7`),
  new RegExp(`STYLE${escape(DOT_MD)}`),
  new RegExp(`\\b${SPEC_WORD}\\b`),
  new RegExp(escape(['shared', 'reference'].join('/'))),
  new RegExp(`\\b${'refer' + 'ence'}/[\\w-]+${escape(DOT_MD)}`),
];

/** A relative path that climbs to a folder named "shared" (one or more parent steps). */
const PARENT_SHARED = new RegExp(`(?<![\\w./])((?:\\.\\./)+)${'sha' + 'red'}\\b`, 'g');

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function isText(file: string): boolean {
  return TEXT_EXTENSIONS.has(path.extname(file));
}

function walk(relative: string, out: string[]): void {
  const absolute = path.join(ROOT, relative);
  for (const entry of readdirSync(absolute, { withFileTypes: true })) {
    const child = path.join(relative, entry.name);
    if (entry.isDirectory()) {
      if (SKIPPED_DIRS.has(entry.name) || SKIPPED_PATHS.has(child)) continue;
      walk(child, out);
    } else if (entry.isFile() && isText(entry.name)) {
      out.push(child);
    }
  }
}

function filesToCheck(): string[] {
  const files: string[] = [];
  for (const dir of ROOTS) {
    if (statSync(path.join(ROOT, dir), { throwIfNoEntry: false })?.isDirectory()) walk(dir, files);
  }
  for (const entry of readdirSync(ROOT, { withFileTypes: true })) {
    if (
      entry.isFile() &&
      TOP_LEVEL_EXTENSIONS.has(path.extname(entry.name)) &&
      !TOP_LEVEL_SKIPPED.has(entry.name)
    )
      files.push(entry.name);
  }
  return files.sort();
}

/** True when the line names an outside document, or climbs out of the repository to "shared". */
function pointsOutside(file: string, line: string): boolean {
  if (OUTSIDE_NAMES.some((pattern) => pattern.test(line))) return true;
  // Climbing from server/features/<feature>/ to our own shared/ folder is fine; the same steps
  // taken from the repository root lead out of it.
  const ownShared = path.join(ROOT, 'shared');
  for (const match of line.matchAll(PARENT_SHARED)) {
    const target = path.resolve(ROOT, path.dirname(file), `${match[1] ?? ''}shared`);
    if (target !== ownShared) return true;
  }
  return false;
}

describe('the repository explains itself', () => {
  it('has no pointer to documents kept outside it', () => {
    const files = filesToCheck();
    expect(files.length).toBeGreaterThan(50);
    const hits: string[] = [];
    for (const file of files) {
      const lines = readFileSync(path.join(ROOT, file), 'utf8').split('\n');
      lines.forEach((line, index) => {
        if (pointsOutside(file, line)) hits.push(`${file}:${index + 1}: ${line.trim()}`);
      });
    }
    expect(
      hits,
      `Point to docs/architecture.md, docs/domain.md, docs/protocols.md or docs/decisions/ instead, or state the rule:\n${hits.join('\n')}`,
    ).toEqual([]);
  });

  it('tells our own shared/ folder from one outside the repository', () => {
    const up = (steps: number) => '../'.repeat(steps) + 'shared';
    expect(pointsOutside('server/features/orders/x.ts', `from '${up(3)}/money'`)).toBe(false);
    expect(pointsOutside('server/app.ts', `from '${up(1)}/error-codes'`)).toBe(false);
    expect(pointsOutside('README.md', `see ${up(1)}/notes`)).toBe(true);
    expect(pointsOutside('docs/architecture.md', `${up(2)}/x`)).toBe(true);
    expect(pointsOutside('docs/domain.md', `see ${'DESIGN' + DOT_MD}`)).toBe(true);
  });
});
