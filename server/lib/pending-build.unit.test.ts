import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { pendingBuild } from './pending-build';

/** A build directory as `npm run build` leaves it, minus everything a page render would need. */
function buildDir() {
  const root = mkdtempSync(path.join(tmpdir(), 'cometa-pending-'));
  const client = path.join(root, 'client');
  const server = path.join(root, 'server');
  mkdirSync(client, { recursive: true });
  mkdirSync(server, { recursive: true });
  return {
    root,
    client,
    serverBuildFile: path.join(server, 'index.js'),
    stampFile: path.join(root, '.app-name'),
    /** Writes the files of a finished build (a server module React Router can wrap). */
    finish() {
      writeFileSync(
        path.join(client, 'index.html'),
        '<!doctype html><html><head></head><body><script>window.x=1</script></body></html>',
      );
      writeFileSync(
        this.serverBuildFile,
        'export const routes = {}; export const assets = { routes: {}, entry: { module: "", imports: [] }, url: "", version: "1" };' +
          'export const entry = { module: {} }; export const future = {}; export const publicPath = "/";' +
          'export const assetsBuildDirectory = ""; export const basename = "/"; export const ssr = true;' +
          'export const isSpaMode = false; export const prerender = []; export const routeDiscovery = { mode: "initial" };',
      );
    },
  };
}

describe('pendingBuild', () => {
  it('serves nothing from a build until its stamp names this APP_NAME, then loads it once', async () => {
    const dir = buildDir();
    let clock = 0;
    const pending = pendingBuild({
      webRoot: dir.client,
      serverBuildFile: dir.serverBuildFile,
      stampFile: dir.stampFile,
      appName: 'Cometa',
      logger: pino({ level: 'silent' }),
      now: () => clock,
    });
    expect(await pending.ready()).toBeNull();

    // The files are there but the build has not finished (no stamp, or another name's stamp).
    dir.finish();
    clock += 1_000;
    expect(await pending.ready()).toBeNull();
    writeFileSync(dir.stampFile, 'Otra tienda');
    clock += 1_000;
    expect(await pending.ready()).toBeNull();

    // Finished: the disk is read again only after a second has passed.
    writeFileSync(dir.stampFile, 'Cometa');
    clock += 500;
    expect(await pending.ready()).toBeNull();
    clock += 500;
    const built = await pending.ready();
    expect(built?.web.available).toBe(true);
    expect(built?.web.prerendered('/')).toContain('<body>');
    expect(built?.web.scriptHashes).toHaveLength(1);
    expect(typeof built?.pages).toBe('function');
    expect(await pending.ready()).toBe(built);
  });

  it('answers the app paths with a page that reloads itself, and unknown paths with 404', () => {
    const dir = buildDir();
    const pending = pendingBuild({
      webRoot: dir.client,
      serverBuildFile: dir.serverBuildFile,
      stampFile: dir.stampFile,
      appName: 'Tienda <Sur>',
      logger: pino({ level: 'silent' }),
    });
    const page = pending.notice('/dashboard');
    expect(page.status).toBe(200);
    expect(page.html).toContain('Tienda &#60;Sur&#62; se está preparando…');
    expect(page.html).toContain('<meta http-equiv="refresh" content="3">');
    expect(pending.notice('/no-existe').status).toBe(404);
  });
});
