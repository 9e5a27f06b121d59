// The guard is exercised in a real child process: Vitest installs its own handlers in its workers.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function run(guarded: boolean) {
  const script = `
    import { createLogger } from './server/lib/logger.ts';
    import { guardProcess } from './server/lib/process-guards.ts';
    const logger = createLogger('info');
    if (${guarded}) guardProcess(logger);
    // What pg-boss used to do: a rejected promise nobody waits for, carrying a BigInt and NUL.
    Promise.reject(Object.assign(new Error('fail\\u0000ed'), { params: [10n] }));
    setTimeout(() => { logger.flush(); console.log('still alive'); }, 300);
  `;
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 20_000,
  });
}

describe('process guards', () => {
  it('regression: an unhandled rejection ended the server process', () => {
    const unguarded = run(false);
    expect(unguarded.status).not.toBe(0);
    expect(unguarded.stdout).not.toContain('still alive');

    const guarded = run(true);
    expect(guarded.status).toBe(0);
    expect(guarded.stdout).toContain('still alive');
    const line = guarded.stdout.split('\n').find((l) => l.includes('unhandled promise rejection'));
    expect(line).toBeDefined();
    expect(JSON.parse(line ?? '{}')).toMatchObject({ level: 50, err: { message: 'failed' } });
  });
});
