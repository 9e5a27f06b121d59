import { formatUsd } from '../../../shared/money';
import { emailLayout } from '../../lib/email-templates';
import type { MailMessage } from '../../lib/mail';

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
  const body = emailLayout(
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
  const body = emailLayout(
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
