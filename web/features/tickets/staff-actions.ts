// The staff's forms on /admin/soporte (bulk close) and /admin/soporte/:id (reply or note, assign,
// state), each by `intent`, checked with the API's schemas first.
import { StaffTicketReplySchema, TicketStateSchema } from '../../../shared/schemas/tickets';
import { apiFailure, parseValues, type FormResult } from '../../lib/form-data';
import { plural } from '../../../shared/plural';
import { checkTicketFiles, chosenFiles } from './attachments';
import { bulkCloseTickets, staffReply, updateTicket } from './tickets-api';

export type StaffTicketResult = FormResult & { intent: string };

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};

/** «Cerrar seleccionados» on the list. */
export async function runBulkClose(form: FormData): Promise<StaffTicketResult> {
  const intent = 'bulk-close';
  const ids = form.getAll('ids').filter((v): v is string => typeof v === 'string' && v !== '');
  if (ids.length === 0) return { intent, formError: 'Elige al menos un ticket.' };
  try {
    const { closed } = await bulkCloseTickets(ids);
    return {
      intent,
      ok: true,
      message:
        closed === ids.length
          ? `Cerramos ${plural(closed, 'ticket', 'tickets')}.`
          : `Cerramos ${plural(closed, 'ticket', 'tickets')}; los demás ya estaban cerrados.`,
    };
  } catch (err) {
    return { intent, ...apiFailure(err, { PAYLOAD_TOO_LARGE: 'files' }) };
  }
}

/** `reply` (an answer or an internal note), `assign`, `state` on a ticket's page. */
export async function runStaffTicketAction(id: string, form: FormData): Promise<StaffTicketResult> {
  const intent = text(form, 'intent');
  try {
    if (intent === 'reply') {
      const parsed = parseValues(StaffTicketReplySchema, {
        body: text(form, 'body'),
        internal: form.get('internal') === 'on',
        state: text(form, 'state') || undefined,
      });
      const files = chosenFiles(form);
      const filesError = checkTicketFiles(files);
      if ('error' in parsed || filesError)
        return {
          intent,
          fields: {
            ...('error' in parsed ? parsed.error.fields : {}),
            ...(filesError ? { files: filesError } : {}),
          },
        };
      const { body, internal, state } = parsed.data;
      await staffReply(id, { body, internal, state: internal ? undefined : state }, files);
      return {
        intent,
        ok: true,
        message: internal
          ? 'Guardamos la nota interna (el cliente no la ve).'
          : 'Enviamos la respuesta al cliente.',
      };
    }
    if (intent === 'assign') {
      const assignee = text(form, 'assigneeId');
      await updateTicket(id, { assigneeId: assignee === '' ? null : assignee });
      return {
        intent,
        ok: true,
        message: assignee === '' ? 'El ticket quedó sin asignar.' : 'Asignamos el ticket.',
      };
    }
    if (intent === 'state') {
      const state = TicketStateSchema.safeParse(text(form, 'state'));
      if (!state.success) return { intent, fields: { state: 'Elige un estado.' } };
      await updateTicket(id, { state: state.data });
      return { intent, ok: true, message: 'Cambiamos el estado del ticket.' };
    }
    return { intent, formError: 'Acción desconocida.' };
  } catch (err) {
    return { intent, ...apiFailure(err, { PAYLOAD_TOO_LARGE: 'files' }) };
  }
}
