import { formatUsd } from '../../../shared/money';
import type { MailMessage } from '../../lib/mail';

// Same look as server/lib/email-templates.ts (its layout is private, so a copy lives here).
function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function layout(
  appName: string,
  title: string,
  paragraphs: string[],
  action?: { label: string; url: string },
) {
  const html = `<!doctype html><html lang="es"><body style="font-family:system-ui,sans-serif;color:#0f172a;background:#f8fafc;padding:24px">
<div style="max-width:520px;margin:auto;background:#fff;border-radius:12px;padding:32px;border:1px solid #e2e8f0">
<p style="font-weight:700;font-size:18px;margin:0 0 16px">${escapeHtml(appName)}</p>
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(title)}</h1>
${paragraphs.map((p) => `<p style="line-height:1.5">${escapeHtml(p)}</p>`).join('\n')}
${action ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#4f46e5;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;display:inline-block">${escapeHtml(action.label)}</a></p><p style="font-size:13px;color:#475569">Si el botón no funciona, copia este enlace en tu navegador:<br>${escapeHtml(action.url)}</p>` : ''}
</div></body></html>`;
  const text = [
    title,
    '',
    ...paragraphs,
    ...(action ? ['', `${action.label}: ${action.url}`] : []),
    '',
    `— ${appName}`,
  ].join('\n');
  return { html, text };
}

export type TopUpMailInput = {
  appName: string;
  appUrl: string;
  to: string;
  name: string;
  amount: bigint;
  methodName: string;
  reference: string | null;
};

function paidWith(input: TopUpMailInput): string {
  return input.reference ? `${input.methodName} (referencia ${input.reference})` : input.methodName;
}

export function topUpApprovedEmail(input: TopUpMailInput & { balance: bigint }): MailMessage {
  const amount = formatUsd(input.amount);
  const title = `Tu recarga de ${amount} fue aprobada`;
  const body = layout(
    input.appName,
    title,
    [
      `Hola, ${input.name}:`,
      `Revisamos tu pago por ${paidWith(input)} y acreditamos ${amount} en tu saldo.`,
      `Tu saldo disponible ahora es ${formatUsd(input.balance)}.`,
    ],
    { label: 'Ver mi saldo', url: `${input.appUrl}/addfunds` },
  );
  return { to: input.to, subject: title, ...body };
}

export function topUpRejectedEmail(input: TopUpMailInput & { reason: string }): MailMessage {
  const amount = formatUsd(input.amount);
  const title = `Tu recarga de ${amount} fue rechazada`;
  const body = layout(
    input.appName,
    title,
    [
      `Hola, ${input.name}:`,
      `No pudimos confirmar tu pago por ${paidWith(input)}, así que no se acreditó ningún importe.`,
      `Motivo: ${input.reason}`,
      'Si crees que es un error, escríbenos desde la página de contacto e incluye el comprobante de tu pago.',
    ],
    { label: 'Ver mis recargas', url: `${input.appUrl}/addfunds` },
  );
  return { to: input.to, subject: title, ...body };
}
