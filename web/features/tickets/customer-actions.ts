// The customer's forms on /soporte/nuevo and /soporte/:id: checked with the API's own schemas
// (and the attachment limits) before anything is sent.
import { redirect } from 'react-router';
import { CreateTicketSchema, TicketReplySchema } from '../../../shared/schemas/tickets';
import { apiFailure, parseValues, type FormResult } from '../../lib/form-data';
import { reloadMe } from '../../lib/session';
import { checkTicketFiles, chosenFiles } from './attachments';
import { closeMyTicket, createTicket, reopenMyTicket, replyToTicket } from './tickets-api';

export type TicketFormResult = FormResult & { intent?: string };

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};

/** «Enviar ticket»: on success, to the new ticket's page. */
export async function runCreateTicket(form: FormData): Promise<TicketFormResult | Response> {
  const files = chosenFiles(form);
  const parsed = parseValues(CreateTicketSchema, {
    subject: text(form, 'subject'),
    category: text(form, 'category'),
    orderIds: form.getAll('orderIds').filter((v) => typeof v === 'string'),
    message: text(form, 'message'),
  });
  const filesError = checkTicketFiles(files);
  if ('error' in parsed || filesError)
    return {
      fields: {
        ...('error' in parsed ? parsed.error.fields : {}),
        ...(filesError ? { files: filesError } : {}),
      },
    };
  try {
    const created = await createTicket(parsed.data, files);
    return redirect(`/soporte/${created.id}?creado=${created.number}`);
  } catch (err) {
    return apiFailure(err, { PAYLOAD_TOO_LARGE: 'files' });
  }
}

/** «Enviar» (a reply), «Cerrar ticket» and «Reabrir», by `intent`. */
export async function runTicketAction(id: string, form: FormData): Promise<TicketFormResult> {
  const intent = text(form, 'intent');
  try {
    if (intent === 'close') {
      await closeMyTicket(id);
      return { intent, ok: true, message: 'Cerraste el ticket. Puedes reabrirlo si lo necesitas.' };
    }
    if (intent === 'reopen') {
      await reopenMyTicket(id);
      return { intent, ok: true, message: 'Reabriste el ticket. Ya puedes escribirnos.' };
    }
    if (intent !== 'reply') return { intent, formError: 'Acción desconocida.' };
    const files = chosenFiles(form);
    const parsed = parseValues(TicketReplySchema, { body: text(form, 'body') });
    const filesError = checkTicketFiles(files);
    if ('error' in parsed || filesError)
      return {
        intent,
        fields: {
          ...('error' in parsed ? parsed.error.fields : {}),
          ...(filesError ? { files: filesError } : {}),
        },
      };
    await replyToTicket(id, parsed.data.body, files);
    void reloadMe();
    return { intent, ok: true, message: 'Enviamos tu mensaje.' };
  } catch (err) {
    return { intent, ...apiFailure(err, { PAYLOAD_TOO_LARGE: 'files' }) };
  }
}
