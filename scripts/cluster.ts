// `npm run cluster`: two app instances on one PostgreSQL behind a small local load balancer, to
// try what production looks like on one machine (sessions, rate limits, jobs and money shared
// through the database; nothing in process memory that another instance needs).
//
//   DATABASE_URL=postgres://… npm run cluster          # balancer on PORT (default 3000)
//
// Instances listen on PORT+1 and PORT+2 with TRUST_PROXY=true; the balancer sends each request
// to the next instance in turn, with X-Forwarded-For. Ctrl-C stops everything.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  process.stderr.write('npm run cluster needs DATABASE_URL=postgres://… (one database for both)\n');
  process.exit(1);
}
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
const appUrl = process.env.APP_URL ?? `http://localhost:${port}`;
// Every instance must sign and read sessions with the same secret.
const authSecret = process.env.AUTH_SECRET ?? randomBytes(48).toString('base64url');
const dataRoot = process.env.DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'cometa-cluster-'));

const instances = [port + 1, port + 2].map((instancePort, i) => ({
  name: `app-${i + 1}`,
  port: instancePort,
}));

const children: ChildProcess[] = instances.map(({ name, port: instancePort }) => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    env: {
      ...process.env,
      PORT: String(instancePort),
      HOST: '127.0.0.1',
      APP_URL: appUrl,
      AUTH_SECRET: authSecret,
      DATABASE_URL: databaseUrl,
      TRUST_PROXY: 'true',
      DATA_DIR: path.join(dataRoot, name),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('exit', (code) => {
    process.stderr.write(`${name} stopped (${code ?? 'signal'})\n`);
    shutdown(1);
  });
  return child;
});

let next = 0;
const balancer = http.createServer((req, res) => {
  const target = instances[next % instances.length];
  next += 1;
  if (!target) return res.writeHead(502).end();
  const forwarded = [req.headers['x-forwarded-for'], req.socket.remoteAddress]
    .filter(Boolean)
    .join(', ');
  const upstream = http.request(
    {
      host: '127.0.0.1',
      port: target.port,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, 'x-forwarded-for': forwarded, 'x-served-by': target.name },
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, {
        ...answer.headers,
        'x-served-by': target.name,
      });
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
    res.end('instance unavailable');
  });
  req.pipe(upstream);
});
balancer.listen(port, host, () => {
  process.stdout.write(
    `cluster: balancer on http://${host}:${port} → ${instances.map((i) => `${i.name} :${i.port}`).join(', ')}\n`,
  );
});

let stopping = false;
function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  balancer.close();
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 2000).unref();
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));
