import {
  AnnouncementInputSchema,
  AnnouncementPatchSchema,
} from '../../../shared/schemas/announcements';
import { apiFailure, parseValues, type FormResult } from '../../lib/form-data';
import {
  createAnnouncement,
  deleteAnnouncement,
  updateAnnouncement,
} from './admin-announcements-api';
import { announcementBody, readAnnouncementForm } from './draft';

export type AnnouncementIntent = 'create' | 'update' | 'delete';

/** What a form of /admin/anuncios gets back: a message, or what to fix. */
export type AnnouncementActionResult = FormResult & {
  intent: AnnouncementIntent;
  id: string;
  ok: boolean;
};

function intentOf(value: FormDataEntryValue | null): AnnouncementIntent | null {
  return value === 'create' || value === 'update' || value === 'delete' ? value : null;
}

/**
 * The forms of /admin/anuncios, by `intent`: publish, change (both checked with the API's own
 * schema first, so a refused form names its fields) or delete.
 */
export async function runAnnouncementAction(form: FormData): Promise<AnnouncementActionResult> {
  const intent = intentOf(form.get('intent'));
  const rawId = form.get('id');
  const id = typeof rawId === 'string' ? rawId : '';
  if (!intent) return { intent: 'create', id, ok: false, formError: 'No sabemos qué hacer.' };
  if (intent === 'delete') {
    try {
      await deleteAnnouncement(id);
    } catch (err) {
      return { intent, id, ok: false, ...apiFailure(err) };
    }
    const title = form.get('title');
    const name = typeof title === 'string' ? title : '';
    return { intent, id, ok: true, message: `Eliminamos el anuncio «${name}».` };
  }
  const body = announcementBody(readAnnouncementForm(form));
  const parsed = parseValues(
    intent === 'create' ? AnnouncementInputSchema : AnnouncementPatchSchema,
    body,
  );
  if ('error' in parsed) return { intent, id, ok: false, ...parsed.error };
  try {
    const saved =
      intent === 'create' ? await createAnnouncement(body) : await updateAnnouncement(id, body);
    const message =
      intent === 'create'
        ? saved.state === 'scheduled'
          ? `Programamos «${saved.title}».`
          : `Publicamos «${saved.title}».`
        : `Guardamos los cambios de «${saved.title}».`;
    return { intent, id: saved.id, ok: true, message };
  } catch (err) {
    return { intent, id, ok: false, ...apiFailure(err) };
  }
}
