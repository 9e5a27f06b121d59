import { formatUsd } from '../../../shared/money';
import { plural } from '../../../shared/plural';
import { emailLayout } from '../../lib/email-templates';
import type { MailMessage } from '../../lib/mail';

/** What an e-mail says about one order: its number, service, IMEI or link, and where to see it. */
export type OrderMailLine = {
  id: string;
  number: number;
  serviceName: string;
  /** The IMEI, serial or link the order is for; null when the service asks for none. */
  target: { label: string; value: string } | null;
};

type OrderMail = OrderMailLine & {
  appName: string;
  appUrl: string;
  to: string;
  name: string;
};

/** The order's own page: the history with its detail open. */
export function orderUrl(appUrl: string, id: string): string {
  return `${appUrl}/orderhistory?orden=${encodeURIComponent(id)}`;
}

/**
 * «IMEI», «Enlace» or «Datos» and the value, from the order's identifier (or its IMEI or link
 * field when the service marks none).
 */
export function orderTarget(row: {
  identifier: string | null;
  fields: Record<string, string>;
}): OrderMailLine['target'] {
  const fields = row.fields;
  const value = row.identifier ?? fields.imei ?? fields.link ?? fields.url ?? null;
  if (!value) return null;
  if (fields.imei === value) return { label: 'IMEI', value };
  if (/^https?:\/\//i.test(value)) return { label: 'Enlace', value };
  return { label: 'Datos', value };
}

/** «Servicio: …» and «IMEI: …» (or «Enlace: …»), the lines every order e-mail carries. */
function orderFacts(line: OrderMailLine): string[] {
  return [
    `Servicio: ${line.serviceName}`,
    ...(line.target ? [`${line.target.label}: ${line.target.value}`] : []),
  ];
}

function viewOrder(input: OrderMail) {
  return { label: 'Ver la orden', url: orderUrl(input.appUrl, input.id) };
}

export function orderCompletedEmail(input: OrderMail & { result: string }): MailMessage {
  const body = emailLayout(
    input.appName,
    `Tu orden #${input.number} está completada`,
    [
      `Hola, ${input.name}:`,
      `Tu orden #${input.number} se completó.`,
      ...orderFacts(input),
      `Resultado: ${input.result}`,
    ],
    viewOrder(input),
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
      `Tu orden #${input.number} fue rechazada.`,
      ...orderFacts(input),
      `Motivo: ${input.reason}`,
      `Devolvimos ${formatUsd(input.price)} a tu saldo.`,
    ],
    viewOrder(input),
  );
  return { to: input.to, subject: `Orden #${input.number} rechazada y reembolsada`, ...body };
}

export function orderPartialEmail(input: OrderMail & { result: string }): MailMessage {
  const body = emailLayout(
    input.appName,
    `Tu orden #${input.number} se entregó en parte`,
    [
      `Hola, ${input.name}:`,
      `Tu orden #${input.number} terminó con una entrega parcial.`,
      ...orderFacts(input),
      input.result,
    ],
    viewOrder(input),
  );
  return { to: input.to, subject: `Orden #${input.number}: entrega parcial`, ...body };
}

/** One finished order in a summary. */
export type FinishedOrderLine = OrderMailLine &
  (
    | { kind: 'completed'; result: string }
    | { kind: 'partial'; result: string }
    | { kind: 'rejected'; reason: string; price: string }
  );

const KIND_WORDS = {
  completed: ['completada', 'completadas'],
  partial: ['con entrega parcial', 'con entrega parcial'],
  rejected: ['rechazada', 'rechazadas'],
} as const;

/** «#123 · IMEI 356… · Servicio — Completada: resultado». */
function summaryLine(line: FinishedOrderLine): string {
  const target = line.target ? ` · ${line.target.label} ${line.target.value}` : '';
  const head = `#${line.number} · ${line.serviceName}${target}`;
  if (line.kind === 'completed') return `${head} — Completada: ${line.result}`;
  if (line.kind === 'partial') return `${head} — Entrega parcial: ${line.result}`;
  return `${head} — Rechazada (${line.reason}); devolvimos ${formatUsd(line.price)} a tu saldo.`;
}

/**
 * Several orders of one customer finished together (a bulk order completed at once, or a poll
 * that settled many): ONE e-mail listing each of them, instead of one e-mail per order.
 */
export function ordersFinishedSummaryEmail(input: {
  appName: string;
  appUrl: string;
  to: string;
  name: string;
  lines: FinishedOrderLine[];
}): MailMessage {
  const lines = [...input.lines].sort((a, b) => a.number - b.number);
  const counts = (['completed', 'partial', 'rejected'] as const)
    .map((kind) => {
      const n = lines.filter((l) => l.kind === kind).length;
      return n === 0 ? null : plural(n, KIND_WORDS[kind][0], KIND_WORDS[kind][1]);
    })
    .filter((c): c is string => c !== null);
  const title = `${plural(lines.length, 'orden terminada', 'órdenes terminadas')}: ${counts.join(', ')}`;
  const body = emailLayout(
    input.appName,
    title,
    [
      `Hola, ${input.name}:`,
      `Terminaron ${plural(lines.length, 'orden tuya', 'órdenes tuyas')}. Cada una tiene su detalle en tu historial:`,
      ...lines.map((l) => `${summaryLine(l)} ${orderUrl(input.appUrl, l.id)}`),
    ],
    { label: 'Ver mis órdenes', url: `${input.appUrl}/orderhistory` },
  );
  return { to: input.to, subject: title, ...body };
}
