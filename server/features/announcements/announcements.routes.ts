import {
  AnnouncementInputSchema,
  AnnouncementPatchSchema,
} from '../../../shared/schemas/announcements';
import { idParams } from '../../../shared/schemas/query';
import { STAFF_AREAS } from '../../../shared/roles';
import { defineRoute } from '../../lib/route';
import {
  createAnnouncement,
  deleteAnnouncement,
  listAdminAnnouncements,
  listCustomerAnnouncements,
  markAnnouncementRead,
  updateAnnouncement,
} from './announcements.service';

const ANNOUNCEMENT_ID = idParams('Identificador del anuncio (UUID).');
const ROLES = STAFF_AREAS.announcements;

/** What a customer sees: /api/announcements. */
export const announcementRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/announcements',
    operationId: 'listAnnouncements',
    tag: 'Cuenta',
    summary: 'Anuncios para mí',
    description:
      'Los anuncios que este cliente debe ver ahora (empezados, sin terminar, de su audiencia), los fijados primero y luego los más nuevos (hasta 50), cada uno con `read` si ya lo cerró. Una cuenta del equipo no recibe anuncios (lista vacía).',
    access: 'customer',
    responses: [{ status: 200, description: 'Los anuncios.', body: 'AnnouncementList' }],
    handler: async ({ c, deps, user }) =>
      c.json({ items: await listCustomerAnnouncements(deps.db, user) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/announcements/:id/read',
    operationId: 'markAnnouncementRead',
    tag: 'Cuenta',
    summary: 'Marcar un anuncio como leído',
    description:
      'Deja de mostrarse como aviso (sigue en la lista de anuncios). Repetirlo no cambia nada. 404 si no es un anuncio que este cliente vea ahora.',
    access: 'customer',
    params: ANNOUNCEMENT_ID,
    responses: [{ status: 200, description: 'El anuncio, leído.', body: 'Announcement' }],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, user, params }) =>
      c.json(await markAnnouncementRead(deps.db, user, params.id)),
  }),
];

/** /api/admin/announcements: admins only (STAFF_AREAS.announcements). */
export const announcementAdminRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/admin/announcements',
    operationId: 'adminListAnnouncements',
    tag: 'Administración',
    summary: 'Anuncios',
    description:
      'Todos los anuncios no eliminados, el inicio más reciente primero, con su estado (programado, activo, terminado) y los correos enviados.',
    access: 'admin',
    roles: ROLES,
    responses: [{ status: 200, description: 'Los anuncios.', body: 'AdminAnnouncementList' }],
    handler: async ({ c, deps }) => c.json({ items: await listAdminAnnouncements(deps.db) }),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/announcements',
    operationId: 'adminCreateAnnouncement',
    tag: 'Administración',
    summary: 'Publicar un anuncio',
    description:
      'Para todos (`audience: {}`) o para los clientes de unos grupos de precios. Sin `startsAt` se publica ahora. Con `email: true` se envía también por correo, en lotes, a los clientes verificados de su audiencia cuando empieza. Queda auditado.',
    access: 'admin',
    roles: ROLES,
    body: { schema: AnnouncementInputSchema },
    responses: [{ status: 201, description: 'El anuncio creado.', body: 'AdminAnnouncement' }],
    errors: ['VALIDATION_FAILED'],
    handler: async ({ c, deps, user, body }) =>
      c.json(await createAnnouncement(deps, { id: user.id, ip: c.get('clientIp') }, body), 201),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/admin/announcements/:id',
    operationId: 'adminUpdateAnnouncement',
    tag: 'Administración',
    summary: 'Cambiar un anuncio',
    description:
      'Solo cambia lo que se envía. Con `email: false` el correo que falte por enviar ya no sale. Queda auditado (antes → después).',
    access: 'admin',
    roles: ROLES,
    params: ANNOUNCEMENT_ID,
    body: { schema: AnnouncementPatchSchema },
    responses: [{ status: 200, description: 'El anuncio cambiado.', body: 'AdminAnnouncement' }],
    errors: ['NOT_FOUND', 'VALIDATION_FAILED'],
    handler: async ({ c, deps, user, params, body }) =>
      c.json(
        await updateAnnouncement(deps, { id: user.id, ip: c.get('clientIp') }, params.id, body),
      ),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/admin/announcements/:id',
    operationId: 'adminDeleteAnnouncement',
    tag: 'Administración',
    summary: 'Eliminar un anuncio',
    description: 'Deja de mostrarse y su correo pendiente ya no sale. Queda auditado.',
    access: 'admin',
    roles: ROLES,
    params: ANNOUNCEMENT_ID,
    responses: [{ status: 200, description: 'Eliminado.', body: 'Deleted' }],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, user, params }) => {
      await deleteAnnouncement(deps.db, { id: user.id, ip: c.get('clientIp') }, params.id);
      return c.json({ deleted: true as const });
    },
  }),
];
