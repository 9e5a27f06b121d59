import { DEFAULT_TIME_ZONE, formatDateTime } from '../../../shared/dates';
import { Hono } from 'hono';
import type { Env } from '../../env';
import { isLocalRequest } from '../../lib/client-ip';
import type { AppEnv } from '../../lib/http';
import { readOutbox, type Mailer, type OutboxEntry } from '../../lib/mail';
import { readSmsOutbox, type SmsOutboxEntry } from '../../lib/sms';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function renderPage(appName: string, entries: OutboxEntry[], texts: SmsOutboxEntry[]): string {
  const smsItems = texts
    .map(
      (m) => `<li class="mail">
  <p class="meta"><time datetime="${escapeHtml(m.date)}">${escapeHtml(formatDateTime(m.date, DEFAULT_TIME_ZONE))}</time> · Para: <strong>${escapeHtml(m.to)}</strong></p>
  <pre>${escapeHtml(m.text)}</pre>
</li>`,
    )
    .join('\n');
  const items = entries
    .map(
      (e) => `<li class="mail">
  <p class="meta"><time datetime="${escapeHtml(e.date)}">${escapeHtml(formatDateTime(e.date, DEFAULT_TIME_ZONE))}</time> · Para: <strong>${escapeHtml(e.to)}</strong></p>
  <h2>${escapeHtml(e.subject)}</h2>
  ${e.links.length ? `<ul class="links">${e.links.map((l) => `<li><a href="${escapeHtml(l)}">${escapeHtml(l)}</a></li>`).join('')}</ul>` : ''}
  <details><summary>Ver el texto</summary><pre>${escapeHtml(e.text)}</pre></details>
  <p class="file">Archivo: outbox/${escapeHtml(e.id)}.eml</p>
</li>`,
    )
    .join('\n');
  return `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Correo local · ${escapeHtml(appName)}</title>
<style>body{font-family:system-ui,sans-serif;margin:0;background:#f8fafc;color:#0f172a}main{max-width:760px;margin:auto;padding:24px}
.mail{background:#fff;border:1px solid #e2e8f0;border-radius:12px;padding:16px;margin:0 0 12px;list-style:none}
ul{padding:0}.links li{list-style:none;margin:4px 0;word-break:break-all}.meta,.file{color:#475569;font-size:14px;margin:0}
h1{font-size:24px}h2{font-size:18px;margin:8px 0}pre{white-space:pre-wrap}a{color:#3730a3}</style></head>
<body><main><h1>Correo local de ${escapeHtml(appName)}</h1>
<p>Sin <code>SMTP_URL</code>, los correos se guardan en <code>DATA_DIR/outbox/</code> y se muestran aquí (solo desde este equipo). Los más recientes aparecen primero.</p>
${entries.length ? `<ul>${items}</ul>` : '<p>Todavía no hay correos.</p>'}
<h2>Mensajes SMS</h2>
<p>Sin <code>TWILIO_ACCOUNT_SID</code>, los SMS (códigos para entrar con el teléfono) se guardan en <code>DATA_DIR/outbox/sms-*.json</code>.</p>
${texts.length ? `<ul>${smsItems}</ul>` : '<p>Todavía no hay mensajes.</p>'}
</main></body></html>`;
}

/**
 * The mailbox shows every verification link and sign-in code: on only when asked for
 * (DEV_MAILBOX, which `npm start` sets for a local http APP_URL and env.ts refuses with https),
 * and only while mail goes to the outbox.
 */
export function devMailboxEnabled(env: Pick<Env, 'DEV_MAILBOX'>, mailer: Pick<Mailer, 'kind'>) {
  return env.DEV_MAILBOX && mailer.kind === 'outbox';
}

/**
 * Development mailbox: when enabled, only to a caller on this machine, judged by the socket
 * (a forged X-Forwarded-For, or a reverse proxy on the same host, does not make one).
 */
export function mailboxRoutes(deps: { dataDir: string; appName: string; enabled: boolean }) {
  return new Hono<AppEnv>()
    .use(async (c, next) => {
      if (!deps.enabled || !isLocalRequest(c)) return c.notFound();
      c.header('Cache-Control', 'no-store');
      await next();
    })
    .get('/', async (c) =>
      c.html(
        renderPage(deps.appName, await readOutbox(deps.dataDir), await readSmsOutbox(deps.dataDir)),
      ),
    )
    .get('/mensajes.json', async (c) => c.json(await readOutbox(deps.dataDir)))
    .get('/sms.json', async (c) => c.json(await readSmsOutbox(deps.dataDir)));
}
