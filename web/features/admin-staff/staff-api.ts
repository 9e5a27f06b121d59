// The back office's team (/admin/personal) and audit log (/admin/auditoria): their API calls and
// form actions. Used by the server loaders and the clientLoaders.
import { z } from 'zod';
import { staffRoleSchema } from '../../../shared/schemas/roles';
import {
  AuditPageSchema,
  InviteStaffSchema,
  StaffInvitationSchema,
  StaffListSchema,
  StaffMemberSchema,
} from '../../../shared/schemas/staff';
import { api, ApiError } from '../../lib/api';
import { parseForm, type FormResult } from '../../lib/form-data';
import { settle } from '../../lib/loaded';

export async function staffPage() {
  return { staff: await settle(api.get('/api/admin/staff', StaffListSchema)) };
}

export type StaffActionResult = FormResult & { intent: string; id?: string };

function failure(intent: string, err: unknown, id?: string): StaffActionResult {
  if (!(err instanceof ApiError)) throw err;
  return { intent, id, formError: err.message, fields: err.fields };
}

/** «Invitar», «Cambiar rol» and «Quitar del equipo», by `intent`. */
export async function runStaffAction(form: FormData): Promise<StaffActionResult> {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : '';
  };
  const intent = text('intent');
  const id = text('id');
  try {
    if (intent === 'invite') {
      const parsed = parseForm(InviteStaffSchema, form);
      if ('error' in parsed) return { intent, ...parsed.error };
      const sent = await api.post('/api/admin/staff', StaffInvitationSchema, parsed.data);
      return { intent, ok: true, message: `Invitación enviada a ${sent.email}.` };
    }
    if (intent === 'role') {
      const role = staffRoleSchema.safeParse(form.get('role'));
      if (!role.success) return { intent, id, formError: 'Elige un rol.' };
      const member = await api.patch(
        `/api/admin/staff/${encodeURIComponent(id)}`,
        StaffMemberSchema,
        { role: role.data },
      );
      return { intent, id, ok: true, message: `${member.name || member.email}: rol cambiado.` };
    }
    if (intent === 'remove') {
      await api.send(
        `/api/admin/staff/${encodeURIComponent(id)}`,
        z.object({ deleted: z.literal(true) }),
        { method: 'DELETE' },
      );
      return { intent, id, ok: true, message: 'Ya no forma parte del equipo.' };
    }
  } catch (err) {
    return failure(intent, err, id);
  }
  return { intent, formError: 'Acción desconocida.' };
}

/** The audit log's filters, as the page's address carries them. */
export type AuditFilters = {
  actor: string;
  action: string;
  targetType: string;
  targetId: string;
  from: string;
  to: string;
};

export const AUDIT_FILTER_KEYS = [
  'actor',
  'action',
  'targetType',
  'targetId',
  'from',
  'to',
] as const;

export function auditFilters(url: URL): AuditFilters {
  const p = url.searchParams;
  const get = (k: string) => (p.get(k) ?? '').trim().slice(0, 200);
  return {
    actor: get('actor'),
    action: get('action'),
    targetType: get('targetType'),
    targetId: get('targetId'),
    from: /^\d{4}-\d{2}-\d{2}$/.test(get('from')) ? get('from') : '',
    to: /^\d{4}-\d{2}-\d{2}$/.test(get('to')) ? get('to') : '',
  };
}

export function auditQuery(f: AuditFilters, cursor?: string): string {
  const params = new URLSearchParams();
  for (const key of AUDIT_FILTER_KEYS) if (f[key]) params.set(key, f[key]);
  if (cursor) params.set('cursor', cursor);
  return params.toString();
}

export function fetchAudit(f: AuditFilters, cursor?: string) {
  return api.get(`/api/admin/audit?${auditQuery(f, cursor)}`, AuditPageSchema);
}

/** /admin/auditoria: the filters, the first page and the team (the «Persona» choices). */
export async function auditPage(request: Request) {
  const filters = auditFilters(new URL(request.url));
  const [page, staff] = await Promise.all([
    settle(fetchAudit(filters)),
    settle(api.get('/api/admin/staff', StaffListSchema)),
  ]);
  return { filters, page, staff };
}
