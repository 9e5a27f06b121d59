import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// No import cycles in web/, server/ and shared/ (docs/decisions/0011-import-boundaries.md). The
// graph is built from the import and export statements of every source file, type-only ones
// included: a cycle of types is still two modules that cannot be understood one without the
// other. ESLint enforces the other boundaries; this test is the cycle rule, because the usual
// plugin needs native packages whose lock entries break `npm ci` here (decision 0007).

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROOTS = ['web', 'server', 'shared'];
const SKIPPED_DIRS = new Set(['node_modules', '+types', 'migrations']);
const SOURCE = /\.(ts|tsx)$/;

/** `import … from '…'`, `import '…'`, `export … from '…'`, `import('…')` with a literal path. */
const SPECIFIERS = [
  /^\s*import\s+(?:type\s+)?[^'";]*?\s+from\s+['"]([^'"]+)['"]/gm,
  /^\s*import\s+['"]([^'"]+)['"]/gm,
  /^\s*export\s+(?:type\s+)?(?:\*|\{[^}]*\})(?:\s+as\s+\w+)?\s+from\s+['"]([^'"]+)['"]/gm,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
];

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIPPED_DIRS.has(name)) continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) sourceFiles(full, out);
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** A relative specifier as the file it names (ESM without extensions, as TypeScript resolves). */
function resolve(from: string, specifier: string, files: Set<string>): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.js$/, '.tsx'),
    path.join(base, 'index.ts'),
    path.join(base, 'index.tsx'),
  ];
  return candidates.find((c) => files.has(c)) ?? null;
}

/** Without comments, so a commented-out import does not count. */
function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

function importGraph(roots: string[]): Map<string, string[]> {
  const files = roots.flatMap((r) => sourceFiles(path.join(ROOT, r)));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = stripComments(readFileSync(file, 'utf8'));
    const targets = new Set<string>();
    for (const pattern of SPECIFIERS) {
      for (const match of text.matchAll(pattern)) {
        const target = match[1] ? resolve(file, match[1], known) : null;
        if (target) targets.add(target);
      }
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** Every cycle's files (one list per strongly connected component of more than one file). */
function cycles(graph: Map<string, string[]>): string[][] {
  // Tarjan's algorithm, iterative so deep graphs do not overflow the stack.
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  for (const start of graph.keys()) {
    if (indices.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    indices.set(start, index);
    low.set(start, index);
    index += 1;
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const to = edges[frame.next]!;
        frame.next += 1;
        if (!indices.has(to)) {
          indices.set(to, index);
          low.set(to, index);
          index += 1;
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, indices.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === indices.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = (graph.get(frame.node) ?? []).includes(frame.node);
        if (component.length > 1 || selfLoop) found.push(component);
      }
    }
  }
  return found.map((c) => c.map((f) => path.relative(ROOT, f)).sort());
}

describe('import graph', () => {
  it('finds a cycle when there is one (the check itself works)', () => {
    const graph = new Map([
      ['/a.ts', ['/b.ts']],
      ['/b.ts', ['/c.ts']],
      ['/c.ts', ['/a.ts']],
      ['/d.ts', ['/a.ts']],
    ]);
    expect(cycles(graph)).toHaveLength(1);
    expect(cycles(graph)[0]).toHaveLength(3);
  });

  it('reads the imports of a real file', () => {
    const graph = importGraph(ROOTS);
    const draft = path.join(ROOT, 'web/features/admin-services/types.ts');
    expect(graph.get(draft)).toContain(path.join(ROOT, 'web/features/admin-services/draft.ts'));
  });

  it('has no import cycle in web/, server/ or shared/', () => {
    expect(cycles(importGraph(ROOTS))).toEqual([]);
  });
});
