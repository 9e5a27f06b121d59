import { formatUsd, type Cents } from '../../../shared/money';
import { emailLayout } from '../../lib/email-templates';
import type { MailMessage } from '../../lib/mail';

type HeldMailInput = {
  appName: string;
  appUrl: string;
  to: string;
  name: string;
  amount: Cents;
  /** "Tarjeta", "PayPal"… */
  methodName: string;
};

/** Sent when finance approves a top-up that was held for review: it is credited now. */
export function heldTopupApprovedEmail(input: HeldMailInput & { balance: Cents }): MailMessage {
  const amount = formatUsd(input.amount);
  const title = `Tu recarga de ${amount} ya está acreditada`;
  const body = emailLayout(
    input.appName,
    title,
    [
      `Hola, ${input.name}:`,
      `Revisamos tu recarga con ${input.methodName} y acreditamos ${amount} en tu saldo.`,
      `Tu saldo disponible ahora es de ${formatUsd(input.balance)}.`,
      'Si no reconoces este pago, escríbenos desde la página de contacto.',
    ],
    { label: 'Ver mi saldo', url: `${input.appUrl}/addfunds` },
  );
  return { to: input.to, subject: title, ...body };
}

/** Sent when finance rejects a held top-up: nothing is credited and the shop refunds the payment. */
export function heldTopupRejectedEmail(input: HeldMailInput & { reason: string }): MailMessage {
  const amount = formatUsd(input.amount);
  const title = `Tu recarga de ${amount} no se acreditó`;
  const body = emailLayout(
    input.appName,
    title,
    [
      `Hola, ${input.name}:`,
      `Revisamos tu recarga con ${input.methodName} y no pudimos aceptarla, así que no se acreditó ningún importe en tu saldo.`,
      `Motivo: ${input.reason}`,
      `Te devolveremos el dinero a través de ${input.methodName}; según tu banco o proveedor, puede tardar unos días en verse.`,
      'Si tienes dudas, escríbenos desde la página de contacto.',
    ],
    { label: 'Ver mis recargas', url: `${input.appUrl}/addfunds` },
  );
  return { to: input.to, subject: title, ...body };
}
