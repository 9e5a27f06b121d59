// The support desk's routes (docs/domain.md, "Support desk"): the customer's tickets (session or
// API key) and the desk's (staff of STAFF_AREAS.tickets). Attachments are downloaded from the
// customer's route by the ticket's customer and from the staff route by the desk.
import type { Context } from 'hono';
import { formatBytes } from '../../../shared/files';
import { idParams } from '../../../shared/schemas/query';
import { STAFF_AREAS } from '../../../shared/roles';
import {
  BulkCloseTicketsSchema,
  CreateTicketFormSchema,
  CreateTicketSchema,
  StaffTicketQuerySchema,
  StaffTicketReplyFormSchema,
  StaffTicketReplySchema,
  TICKET_AUTO_CLOSE_DAYS,
  TICKET_FILE_MAX_BYTES,
  TICKET_FILES_MAX,
  TicketAttachmentParamsSchema,
  TicketQuerySchema,
  TicketReplyFormSchema,
  TicketReplySchema,
  UpdateTicketSchema,
} from '../../../shared/schemas/tickets';
import { downloadHeaders } from '../../lib/download';
import type { AppEnv } from '../../lib/http';
import { defineRoute, type SuccessSpec } from '../../lib/route';
import { checkTicketFiles, TICKET_FORM_BODY_LIMIT } from './tickets.files';
import {
  bulkCloseTickets,
  createTicket,
  customerClose,
  customerReopen,
  customerReply,
  customerUnreadTickets,
  getMyTicket,
  getStaffTicket,
  listAssignees,
  listMyTickets,
  listStaffTickets,
  staffReply,
  ticketAttachmentForDownload,
  updateTicket,
} from './tickets.service';

const TICKET_ID = idParams('Identificador del ticket (UUID).');
const DESK = STAFF_AREAS.tickets;

const FILES_TEXT = `Hasta ${TICKET_FILES_MAX} archivos por mensaje (campo \`files\` repetido en un formulario \`multipart/form-data\`): imágenes PNG, JPEG, GIF o WebP y PDF de hasta ${formatBytes(TICKET_FILE_MAX_BYTES)} cada uno; el tipo se decide por el contenido, no por el nombre.`;
const BODY_LIMIT_MESSAGE = `Lo enviado es demasiado grande: hasta ${TICKET_FILES_MAX} archivos de ${formatBytes(TICKET_FILE_MAX_BYTES)} como mucho.`;

const FILE_RESPONSE: SuccessSpec = {
  status: 200,
  description: 'El archivo, siempre como descarga.',
  body: {
    media: ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf'],
    description: 'El archivo tal como se subió (`Content-Disposition: attachment`).',
  },
};

function sendAttachment(
  c: Context<AppEnv>,
  file: { name: string; contentType: string; size: number; data: Buffer },
) {
  return c.body(
    new Uint8Array(file.data),
    200,
    downloadHeaders({ mime: file.contentType, size: file.size, fileName: file.name }),
  );
}

/** The files of a message: the form's `files` parts (also accepted as `files[]` or `file`). */
function formFiles(lists: Record<string, File[]>): File[] {
  return [...(lists.files ?? []), ...(lists['files[]'] ?? []), ...(lists.file ?? [])];
}

function ipOf(c: Context<AppEnv>): string | null {
  return c.get('clientIp') ?? null;
}

/** The customer's tickets (session or API key). */
export const ticketRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/tickets/unread',
    operationId: 'countUnreadTickets',
    tag: 'Soporte',
    summary: 'Tickets con respuestas sin leer',
    description:
      'Cuántos de tus tickets tienen respuestas del equipo que aún no abriste (para el aviso de la cabecera).',
    access: 'customer',
    responses: [{ status: 200, description: 'El recuento.', body: 'TicketUnread' }],
    handler: async ({ c, deps, user }) =>
      c.json({ unread: await customerUnreadTickets(deps.db, user.id) }),
  }),
  defineRoute({
    method: 'get',
    path: '/api/tickets',
    operationId: 'listTickets',
    tag: 'Soporte',
    summary: 'Mis tickets de soporte',
    description:
      'Tus tickets, del de actividad más reciente al más antiguo, con cuántas respuestas del equipo no leíste. `state` filtra por estado (`open`, `answered`, `waiting_customer`, `closed`; también en español).',
    access: 'customer',
    query: TicketQuerySchema,
    responses: [{ status: 200, description: 'Una página de tickets.', body: 'TicketList' }],
    handler: async ({ c, deps, user, query }) =>
      c.json(await listMyTickets(deps.db, user.id, query)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/tickets',
    operationId: 'createTicket',
    tag: 'Soporte',
    summary: 'Abrir un ticket de soporte',
    description: `Asunto, categoría (\`order\`, \`payment\`, \`account\`, \`api\`, \`other\`; también en español: orden, pago, cuenta, otro), las órdenes tuyas a las que se refiere (\`orderIds\`) y el mensaje. Como JSON o como formulario con archivos adjuntos. ${FILES_TEXT} Hay un límite de tickets nuevos por hora y cuenta (10 si la tienda no configura otro); pasado, responde 429 con \`Retry-After\`.`,
    access: 'customer',
    body: { schema: CreateTicketSchema, form: CreateTicketFormSchema, repeated: ['orderIds'] },
    bodyLimit: TICKET_FORM_BODY_LIMIT,
    bodyLimitMessage: BODY_LIMIT_MESSAGE,
    rateLimit: {
      name: 'ticket-new',
      per: 'user',
      window: 3600,
      max: (env) => env.TICKET_RATE_LIMIT_PER_HOUR,
      message:
        'Abriste demasiados tickets en la última hora. Espera un poco o escribe en uno abierto.',
    },
    responses: [{ status: 201, description: 'El ticket abierto.', body: 'CreatedTicket' }],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, user, body, fileLists }) => {
      const files = await checkTicketFiles(formFiles(fileLists));
      const created = await createTicket(deps, user, body, files);
      c.get('logger').info({ ticketId: created.id, files: files.length }, 'support ticket opened');
      return c.json(created, 201);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/tickets/:id',
    operationId: 'getTicket',
    tag: 'Soporte',
    summary: 'Un ticket con sus mensajes',
    description:
      'El ticket, sus órdenes vinculadas y sus mensajes con los archivos adjuntos. Abrirlo marca como leídas las respuestas del equipo.',
    access: 'customer',
    params: TICKET_ID,
    responses: [{ status: 200, description: 'El ticket.', body: 'TicketDetail' }],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, user, params }) =>
      c.json(await getMyTicket(deps.db, user.id, params.id)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/tickets/:id/messages',
    operationId: 'replyTicket',
    tag: 'Soporte',
    summary: 'Escribir en un ticket',
    description: `Tu mensaje (\`body\`), como JSON o como formulario con archivos. ${FILES_TEXT} El ticket vuelve a «abierto» (espera al equipo). En un ticket cerrado responde 409: reábrelo primero.`,
    access: 'customer',
    params: TICKET_ID,
    body: { schema: TicketReplySchema, form: TicketReplyFormSchema },
    bodyLimit: TICKET_FORM_BODY_LIMIT,
    bodyLimitMessage: BODY_LIMIT_MESSAGE,
    responses: [{ status: 201, description: 'El mensaje guardado.', body: 'TicketMessageDto' }],
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ c, deps, user, params, body, fileLists }) => {
      const files = await checkTicketFiles(formFiles(fileLists));
      return c.json(await customerReply(deps, user, params.id, body.body, files), 201);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/tickets/:id/close',
    operationId: 'closeTicket',
    tag: 'Soporte',
    summary: 'Cerrar un ticket',
    description: 'Cuando ya no necesitas ayuda. Puedes reabrirlo después.',
    access: 'customer',
    params: TICKET_ID,
    responses: [{ status: 200, description: 'El ticket cerrado.', body: 'TicketDetail' }],
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ c, deps, user, params }) =>
      c.json(await customerClose(deps.db, user.id, params.id)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/tickets/:id/reopen',
    operationId: 'reopenTicket',
    tag: 'Soporte',
    summary: 'Reabrir un ticket cerrado',
    description: `Vuelve a «abierto» y espera al equipo. Un ticket respondido o esperando al cliente se cierra solo tras ${TICKET_AUTO_CLOSE_DAYS} días sin actividad; así se reabre.`,
    access: 'customer',
    params: TICKET_ID,
    responses: [{ status: 200, description: 'El ticket reabierto.', body: 'TicketDetail' }],
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ c, deps, user, params }) =>
      c.json(await customerReopen(deps.db, user.id, params.id)),
  }),
  defineRoute({
    method: 'get',
    path: '/api/tickets/:id/attachments/:attachmentId',
    operationId: 'downloadTicketAttachment',
    tag: 'Soporte',
    summary: 'Descargar un archivo adjunto de tu ticket',
    description:
      'Siempre como descarga (`Content-Disposition: attachment`), nunca para mostrarlo en la página.',
    access: 'customer',
    params: TicketAttachmentParamsSchema,
    responses: [FILE_RESPONSE],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, user, params }) =>
      sendAttachment(
        c,
        await ticketAttachmentForDownload(deps.db, params.id, params.attachmentId, user.id),
      ),
  }),
];

/** The desk: every ticket, internal notes, assignment, states, bulk close. */
export const ticketAdminRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/admin/tickets',
    operationId: 'adminListTickets',
    tag: 'Administración',
    summary: 'Tickets de soporte de todos los clientes',
    description:
      'Del de actividad más reciente al más antiguo. Filtros: `state`, `category`, `assignee` (`me`, `none` o el identificador de alguien del equipo), `customer` (correo, nombre o identificador), `order` (número o identificador de una orden vinculada) y `q` (asunto o número del ticket). `unread` cuenta los mensajes del cliente que nadie del equipo abrió.',
    access: 'admin',
    roles: DESK,
    query: StaffTicketQuerySchema,
    responses: [{ status: 200, description: 'Una página de tickets.', body: 'StaffTicketList' }],
    handler: async ({ c, deps, user, query }) =>
      c.json(await listStaffTickets(deps.db, user.id, query)),
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/tickets/assignees',
    operationId: 'adminListTicketAssignees',
    tag: 'Administración',
    summary: 'A quién se puede asignar un ticket',
    description: 'Las personas del equipo que atienden el soporte (administradores y soporte).',
    access: 'admin',
    roles: DESK,
    responses: [{ status: 200, description: 'Las personas.', body: 'TicketAssigneeList' }],
    handler: async ({ c, deps }) => c.json(await listAssignees(deps.db)),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/tickets/bulk-close',
    operationId: 'adminBulkCloseTickets',
    tag: 'Administración',
    summary: 'Cerrar varios tickets',
    description: 'Cierra los elegidos que no estaban cerrados (hasta 100 a la vez).',
    access: 'admin',
    roles: DESK,
    body: { schema: BulkCloseTicketsSchema },
    responses: [
      { status: 200, description: 'Los tickets cerrados.', body: 'BulkCloseTicketsResult' },
    ],
    handler: async ({ c, deps, user, body }) =>
      c.json(await bulkCloseTickets(deps.db, user.id, body.ids, ipOf(c))),
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/tickets/:id',
    operationId: 'adminGetTicket',
    tag: 'Administración',
    summary: 'Un ticket con sus mensajes y notas internas',
    description:
      'Con las notas internas (`internal: true`), que el cliente nunca ve, los tiempos de primera respuesta y de resolución. Abrirlo marca como leídos los mensajes del cliente.',
    access: 'admin',
    roles: DESK,
    params: TICKET_ID,
    responses: [{ status: 200, description: 'El ticket.', body: 'StaffTicketDetail' }],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, params }) => c.json(await getStaffTicket(deps.db, params.id)),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/admin/tickets/:id',
    operationId: 'adminUpdateTicket',
    tag: 'Administración',
    summary: 'Cambiar el estado o la persona asignada',
    description:
      '`state` (abierto, respondido, esperando al cliente, cerrado) y `assigneeId` (alguien del equipo de soporte, o `null` para nadie).',
    access: 'admin',
    roles: DESK,
    params: TICKET_ID,
    body: { schema: UpdateTicketSchema },
    responses: [{ status: 200, description: 'El ticket.', body: 'StaffTicketSummary' }],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, user, params, body }) =>
      c.json(await updateTicket(deps.db, user.id, params.id, body, ipOf(c))),
  }),
  defineRoute({
    method: 'post',
    path: '/api/admin/tickets/:id/messages',
    operationId: 'adminReplyTicket',
    tag: 'Administración',
    summary: 'Responder un ticket o dejar una nota interna',
    description: `Una respuesta (\`internal: false\`) llega al cliente por correo y deja el ticket «respondido» (o el \`state\` indicado: \`waiting_customer\` o \`closed\`). Una nota interna (\`internal: true\`) solo la ve el equipo y no cambia el estado. ${FILES_TEXT}`,
    access: 'admin',
    roles: DESK,
    params: TICKET_ID,
    body: { schema: StaffTicketReplySchema, form: StaffTicketReplyFormSchema },
    bodyLimit: TICKET_FORM_BODY_LIMIT,
    bodyLimitMessage: BODY_LIMIT_MESSAGE,
    responses: [{ status: 201, description: 'El mensaje guardado.', body: 'TicketMessageDto' }],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, user, params, body, fileLists }) => {
      const files = await checkTicketFiles(formFiles(fileLists));
      return c.json(await staffReply(deps, user, params.id, body, files, ipOf(c)), 201);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/tickets/:id/attachments/:attachmentId',
    operationId: 'adminDownloadTicketAttachment',
    tag: 'Administración',
    summary: 'Descargar un archivo adjunto de un ticket',
    description:
      'Cualquier archivo del ticket, también los de notas internas, siempre como descarga (`Content-Disposition: attachment`).',
    access: 'admin',
    roles: DESK,
    params: TicketAttachmentParamsSchema,
    responses: [FILE_RESPONSE],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, params }) =>
      sendAttachment(
        c,
        await ticketAttachmentForDownload(deps.db, params.id, params.attachmentId, null),
      ),
  }),
];
