import { formatUsd, type Cents } from '../../../../shared/money';
import { emailLayout } from '../../../lib/email-templates';
import type { MailMessage } from '../../../lib/mail';

type Recipient = { appName: string; appUrl: string; to: string; name: string };

/** Sent after a PayPal top-up is credited. */
export function paypalCreditedEmail(input: Recipient & { amount: Cents; balance: Cents }) {
  const title = 'Recarga acreditada';
  const paragraphs = [
    `Hola, ${input.name}:`,
    `Recibimos tu pago con PayPal y acreditamos ${formatUsd(input.amount)} en tu saldo.`,
    `Tu saldo disponible ahora es de ${formatUsd(input.balance)}.`,
    'Si no reconoces este pago, escríbenos desde la página de contacto.',
  ];
  const body = emailLayout(input.appName, title, paragraphs, {
    label: 'Ver mi saldo',
    url: `${input.appUrl}/addfunds`,
  });
  return {
    to: input.to,
    subject: `Recarga acreditada en ${input.appName}`,
    ...body,
  } satisfies MailMessage;
}

/** Sent after a PayPal refund or reversal debited a top-up back. */
export function paypalReversedEmail(
  input: Recipient & { debited: Cents; balance: Cents; reason: string },
) {
  const title = 'Revertimos una recarga';
  const paragraphs = [
    `Hola, ${input.name}:`,
    `PayPal nos informó de la devolución o reversión de un pago tuyo (${input.reason}), así que descontamos ${formatUsd(input.debited)} de tu saldo.`,
    `Tu saldo disponible ahora es de ${formatUsd(input.balance)}.`,
    ...(input.balance < 0n
      ? [
          'Como tu saldo quedó en negativo, no podrás hacer órdenes hasta que soporte revise tu cuenta. Escríbenos desde la página de contacto para resolverlo.',
        ]
      : ['Si no reconoces esta operación, escríbenos desde la página de contacto.']),
  ];
  const body = emailLayout(input.appName, title, paragraphs, {
    label: 'Ver mis movimientos',
    url: `${input.appUrl}/addfunds`,
  });
  return {
    to: input.to,
    subject: `Revertimos una recarga en ${input.appName}`,
    ...body,
  } satisfies MailMessage;
}
