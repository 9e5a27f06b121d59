import { formatUsd, type Cents } from '../../../../shared/money';
import type { MailMessage } from '../../../lib/mail';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** Sent after a card payment is credited (same look as server/lib/email-templates.ts). */
export function topUpCreditedEmail(input: {
  appName: string;
  appUrl: string;
  to: string;
  name: string;
  amount: Cents;
  balance: Cents;
}): MailMessage {
  const title = 'Recarga acreditada';
  const url = `${input.appUrl}/addfunds`;
  const paragraphs = [
    `Hola, ${input.name}:`,
    `Recibimos tu pago con tarjeta y acreditamos ${formatUsd(input.amount)} en tu saldo.`,
    `Tu saldo disponible ahora es de ${formatUsd(input.balance)}.`,
    'Si no reconoces este pago, escríbenos desde la página de contacto.',
  ];
  const html = `<!doctype html><html lang="es"><body style="font-family:system-ui,sans-serif;color:#0f172a;background:#f8fafc;padding:24px">
<div style="max-width:520px;margin:auto;background:#fff;border-radius:12px;padding:32px;border:1px solid #e2e8f0">
<p style="font-weight:700;font-size:18px;margin:0 0 16px">${escapeHtml(input.appName)}</p>
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(title)}</h1>
${paragraphs.map((p) => `<p style="line-height:1.5">${escapeHtml(p)}</p>`).join('\n')}
<p style="margin:24px 0"><a href="${escapeHtml(url)}" style="background:#4f46e5;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;display:inline-block">Ver mi saldo</a></p>
</div></body></html>`;
  const text = [
    title,
    '',
    ...paragraphs,
    '',
    `Ver mi saldo: ${url}`,
    '',
    `— ${input.appName}`,
  ].join('\n');
  return { to: input.to, subject: `Recarga acreditada en ${input.appName}`, text, html };
}
