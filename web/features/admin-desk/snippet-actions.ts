import { snippetTextSchema, type SnippetKind } from '../../../shared/schemas/admin-desk';
import { apiFailure, parseForm, type FormResult } from '../../lib/form-data';
import { deleteSnippet, saveSnippet, updateSnippet } from './desk-api';

export type SnippetIntent = 'create' | 'update' | 'delete';

/** What a form of /admin/respuestas gets back: a message, or what to fix. */
export type SnippetActionResult = FormResult & {
  intent: SnippetIntent;
  /** The saved text the form was about (none for a new one). */
  id: string;
  ok: boolean;
};

function intentOf(value: FormDataEntryValue | null): SnippetIntent | null {
  return value === 'create' || value === 'update' || value === 'delete' ? value : null;
}

/**
 * The forms of /admin/respuestas, by `intent`: save a new reason or template, change one
 * (checked with the API's own rules first, so a refused form names its fields), or delete one.
 */
export async function runSnippetAction(form: FormData): Promise<SnippetActionResult> {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : '';
  };
  const intent = intentOf(form.get('intent'));
  const id = text('id');
  if (!intent) return { intent: 'create', id, ok: false, formError: 'No sabemos qué hacer.' };
  const kind: SnippetKind =
    text('kind') === 'result_template' || text('kind') === 'ticket_reply'
      ? (text('kind') as SnippetKind)
      : 'reject_reason';
  if (intent === 'delete') {
    try {
      await deleteSnippet(id);
    } catch (err) {
      return { intent, id, ok: false, ...apiFailure(err) };
    }
    return { intent, id, ok: true, message: `Borramos «${text('title')}».` };
  }
  const parsed = parseForm(snippetTextSchema(kind), form);
  if ('error' in parsed) return { intent, id, ok: false, ...parsed.error };
  try {
    const saved =
      intent === 'create'
        ? await saveSnippet(kind, parsed.data.title, parsed.data.body)
        : await updateSnippet(id, parsed.data);
    const message =
      intent === 'update'
        ? `Guardamos los cambios de «${saved.title}».`
        : kind === 'reject_reason'
          ? `Guardamos el motivo «${saved.title}». Ya lo puedes elegir en la cola de órdenes.`
          : kind === 'ticket_reply'
            ? `Guardamos la respuesta «${saved.title}». Ya la puedes elegir al responder un ticket.`
            : `Guardamos la plantilla «${saved.title}». Ya la puedes elegir en la cola de órdenes.`;
    return { intent, id: saved.id, ok: true, message };
  } catch (err) {
    return { intent, id, ok: false, ...apiFailure(err) };
  }
}
