import { formatAmount, formatUsd, type Cents } from '../../../../shared/money';
import { emailLayout } from '../../../lib/email-templates';
import type { MailMessage } from '../../../lib/mail';

/** Sent after a Mercado Pago payment is credited. */
export function mercadoPagoCreditedEmail(input: {
  appName: string;
  appUrl: string;
  to: string;
  name: string;
  amount: Cents;
  /** What Mercado Pago charged, in its currency. */
  charged: { amount: Cents; currency: string } | null;
  balance: Cents;
}): MailMessage {
  const title = 'Recarga acreditada';
  const url = `${input.appUrl}/addfunds`;
  const paid = input.charged
    ? ` (pagaste ${formatAmount(input.charged.amount)} ${input.charged.currency})`
    : '';
  const paragraphs = [
    `Hola, ${input.name}:`,
    `Recibimos tu pago con Mercado Pago${paid} y acreditamos ${formatUsd(input.amount)} en tu saldo.`,
    `Tu saldo disponible ahora es de ${formatUsd(input.balance)}.`,
    'Si no reconoces este pago, escríbenos desde la página de contacto.',
  ];
  const body = emailLayout(input.appName, title, paragraphs, { label: 'Ver mi saldo', url });
  return { to: input.to, subject: `Recarga acreditada en ${input.appName}`, ...body };
}
