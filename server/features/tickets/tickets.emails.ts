// E-mails of the support desk: one to the other side on every public message (never for an
// internal note), each with a link to the ticket's page.
import { TICKET_CATEGORY_LABELS, type TicketCategory } from '../../../shared/schemas/tickets';
import { emailLayout } from '../../lib/email-templates';
import type { MailMessage } from '../../lib/mail';

/** The customer's page of a ticket, and the staff's. */
export function customerTicketUrl(appUrl: string, id: string): string {
  return `${appUrl}/soporte/${encodeURIComponent(id)}`;
}
export function staffTicketUrl(appUrl: string, id: string): string {
  return `${appUrl}/admin/soporte/${encodeURIComponent(id)}`;
}

/** Long messages are cut in the e-mail: the page has them in full. */
function excerpt(body: string, max = 1500): string {
  return body.length <= max ? body : `${body.slice(0, max).trimEnd()}…`;
}

type TicketMail = {
  appName: string;
  appUrl: string;
  to: string;
  ticket: { id: string; number: number; subject: string };
  body: string;
  attachments: number;
};

function attachmentLine(n: number): string[] {
  if (n === 0) return [];
  return [n === 1 ? 'Incluye 1 archivo adjunto.' : `Incluye ${n} archivos adjuntos.`];
}

/** Staff answered: to the customer. */
export function ticketAnsweredEmail(
  input: TicketMail & { customerName: string; staffName: string },
): MailMessage {
  const title = `Respondimos tu ticket #${input.ticket.number}`;
  const body = emailLayout(
    input.appName,
    title,
    [
      `Hola, ${input.customerName}:`,
      `${input.staffName} respondió a tu ticket «${input.ticket.subject}»:`,
      excerpt(input.body),
      ...attachmentLine(input.attachments),
      'Puedes contestar desde la página del ticket.',
    ],
    { label: 'Ver el ticket', url: customerTicketUrl(input.appUrl, input.ticket.id) },
  );
  return {
    to: input.to,
    subject: `Re: [#${input.ticket.number}] ${input.ticket.subject}`,
    ...body,
  };
}

/** A customer opened a ticket or wrote in one: to its assignee, or the shop's inbox. */
export function ticketFromCustomerEmail(
  input: TicketMail & {
    isNew: boolean;
    customer: { name: string; email: string };
    category: TicketCategory;
  },
): MailMessage {
  const title = input.isNew
    ? `Nuevo ticket #${input.ticket.number}: ${input.ticket.subject}`
    : `${input.customer.name} respondió al ticket #${input.ticket.number}`;
  const body = emailLayout(
    input.appName,
    title,
    [
      `Cliente: ${input.customer.name} (${input.customer.email})`,
      `Asunto: ${input.ticket.subject}`,
      `Categoría: ${TICKET_CATEGORY_LABELS[input.category]}`,
      excerpt(input.body),
      ...attachmentLine(input.attachments),
    ],
    { label: 'Abrir el ticket', url: staffTicketUrl(input.appUrl, input.ticket.id) },
  );
  return {
    to: input.to,
    subject: input.isNew
      ? `[#${input.ticket.number}] Nuevo ticket: ${input.ticket.subject}`
      : `[#${input.ticket.number}] Respuesta del cliente: ${input.ticket.subject}`,
    ...body,
  };
}
