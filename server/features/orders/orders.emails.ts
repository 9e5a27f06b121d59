import { formatUsd } from '../../../shared/money';
import { emailLayout } from '../../lib/email-templates';
import type { MailMessage } from '../../lib/mail';

type OrderMail = {
  appName: string;
  appUrl: string;
  to: string;
  name: string;
  number: number;
  serviceName: string;
};

export function orderCompletedEmail(input: OrderMail & { result: string }): MailMessage {
  const body = emailLayout(
    input.appName,
    `Tu orden #${input.number} está completada`,
    [
      `Hola, ${input.name}:`,
      `Tu orden #${input.number} (${input.serviceName}) se completó.`,
      `Resultado: ${input.result}`,
    ],
    { label: 'Ver mis órdenes', url: `${input.appUrl}/orderhistory` },
  );
  return { to: input.to, subject: `Orden #${input.number} completada`, ...body };
}

export function orderRejectedEmail(
  input: OrderMail & { reason: string; price: string },
): MailMessage {
  const body = emailLayout(
    input.appName,
    `Tu orden #${input.number} fue rechazada`,
    [
      `Hola, ${input.name}:`,
      `Tu orden #${input.number} (${input.serviceName}) fue rechazada.`,
      `Motivo: ${input.reason}`,
      `Devolvimos ${formatUsd(input.price)} a tu saldo.`,
    ],
    { label: 'Ver mis órdenes', url: `${input.appUrl}/orderhistory` },
  );
  return { to: input.to, subject: `Orden #${input.number} rechazada y reembolsada`, ...body };
}

export function orderPartialEmail(input: OrderMail & { result: string }): MailMessage {
  const body = emailLayout(
    input.appName,
    `Tu orden #${input.number} se entregó en parte`,
    [
      `Hola, ${input.name}:`,
      `Tu orden #${input.number} (${input.serviceName}) terminó con una entrega parcial.`,
      input.result,
    ],
    { label: 'Ver mis órdenes', url: `${input.appUrl}/orderhistory` },
  );
  return { to: input.to, subject: `Orden #${input.number}: entrega parcial`, ...body };
}
