import { ContactSchema } from '../../../shared/schemas/contact';
import { defineRoute } from '../../lib/route';
import { submitContactMessage } from './contact.service';

export const contactRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/contact',
    operationId: 'sendContactMessage',
    tag: 'Contacto',
    summary: 'Enviar un mensaje de contacto',
    description:
      'Abierto a todos; si llega con sesión, el mensaje queda asociado a la cuenta. Como máximo 5 mensajes por hora y dirección IP.',
    access: 'optional',
    rateLimit: {
      name: 'contact',
      per: 'ip',
      window: 3600,
      max: 5,
      message: 'Has enviado varios mensajes seguidos. Inténtalo de nuevo más tarde.',
    },
    body: { schema: ContactSchema },
    responses: [{ status: 201, description: 'Mensaje recibido.', body: 'ContactReceipt' }],
    handler: async ({ c, deps, user, body }) => {
      const result = await submitContactMessage(
        {
          db: deps.db,
          mailer: deps.mailer,
          logger: deps.logger,
          appName: deps.env.APP_NAME,
          operatorEmail: deps.env.CONTACT_EMAIL ?? deps.env.ADMIN_EMAIL,
        },
        body,
        { ipAddress: c.get('clientIp'), userId: user?.id ?? null },
      );
      return c.json(
        { id: result.id, message: 'Gracias. Hemos recibido tu mensaje y te responderemos pronto.' },
        201,
      );
    },
  }),
];
