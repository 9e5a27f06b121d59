import { formatUsd, type Cents } from '../../../../shared/money';
import { emailLayout } from '../../../lib/email-templates';
import type { MailMessage } from '../../../lib/mail';

/** Sent after a card payment is credited. */
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
  const body = emailLayout(input.appName, title, paragraphs, { label: 'Ver mi saldo', url });
  return { to: input.to, subject: `Recarga acreditada en ${input.appName}`, ...body };
}
