import { formatUsd, type Cents } from '../../../../shared/money';
import { emailLayout } from '../../../lib/email-templates';
import type { MailMessage } from '../../../lib/mail';

/** Sent after a crypto payment (or more of it) is credited. */
export function cryptoCreditedEmail(input: {
  appName: string;
  appUrl: string;
  to: string;
  name: string;
  /** Credited now. */
  amount: Cents;
  balance: Cents;
  /** full: what was asked (or more); partial: part of it; supplement: more after a partial. */
  kind: 'full' | 'partial' | 'supplement';
  /** The payment's note (what arrived and what was credited), when it has one. */
  note: string | null;
}): MailMessage {
  const title = 'Recarga acreditada';
  const url = `${input.appUrl}/addfunds`;
  const credited = formatUsd(input.amount);
  const first =
    input.kind === 'partial'
      ? `Recibimos solo una parte de tu pago en criptomonedas, y acreditamos lo que llegó: ${credited} en tu saldo.`
      : input.kind === 'supplement'
        ? `Llegó más de tu pago en criptomonedas y acreditamos ${credited} más en tu saldo.`
        : `Recibimos tu pago en criptomonedas y acreditamos ${credited} en tu saldo.`;
  const paragraphs = [
    `Hola, ${input.name}:`,
    first,
    ...(input.note ? [input.note] : []),
    `Tu saldo disponible ahora es de ${formatUsd(input.balance)}.`,
    'Si no reconoces este pago, escríbenos desde la página de contacto.',
  ];
  const body = emailLayout(input.appName, title, paragraphs, { label: 'Ver mi saldo', url });
  const subject =
    input.kind === 'partial'
      ? `Pago parcial acreditado en ${input.appName}`
      : `Recarga acreditada en ${input.appName}`;
  return { to: input.to, subject, ...body };
}
