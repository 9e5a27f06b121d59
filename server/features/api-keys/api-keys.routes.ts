import { CreateApiKeySchema } from '../../../shared/schemas/api-keys';
import { idParams } from '../../../shared/schemas/query';
import { AppError } from '../../lib/errors';
import { defineRoute } from '../../lib/route';
import { createKey, listKeys, revokeKey } from './api-keys.service';

const KEY_ID = idParams('Identificador de la clave (UUID).');

/** A key cannot manage keys: only a signed-in person can (a leaked key cannot make more). */
function sessionOnly(user: { apiKeyId?: string }): void {
  if (user.apiKeyId)
    throw new AppError(
      'FORBIDDEN',
      'Las claves API se gestionan desde Mi perfil, con la sesión iniciada, no con otra clave.',
    );
}

/** /api/keys: the customer's personal API keys. */
export const apiKeyRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/keys',
    operationId: 'createApiKey',
    tag: 'Cuenta',
    summary: 'Crear una clave API personal',
    description:
      'La clave (`key`) se muestra solo en esta respuesta: guárdala. Actúa como tu cuenta (nunca como administrador) en esta API con `Authorization: Bearer <clave>`, en la API DHRU Fusion (`POST /api/index.php`, usuario = tu correo) y en la API SMM v2 (`POST /api/v2`, `key`). Con `allowedIps`, solo se acepta desde esas direcciones o rangos.',
    access: 'customer',
    body: { schema: CreateApiKeySchema },
    responses: [{ status: 201, description: 'La clave, por única vez.', body: 'CreatedApiKey' }],
    errors: ['CONFLICT'],
    handler: async ({ c, deps, user, body }) => {
      sessionOnly(user);
      return c.json(await createKey(deps.db, user.id, body), 201);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/keys',
    operationId: 'listApiKeys',
    tag: 'Cuenta',
    summary: 'Mis claves API (sin la clave)',
    access: 'customer',
    responses: [{ status: 200, description: 'Las claves activas.', body: 'ApiKeyList' }],
    handler: async ({ c, deps, user }) => c.json({ items: await listKeys(deps.db, user.id) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/api/keys/:id',
    operationId: 'revokeApiKey',
    tag: 'Cuenta',
    summary: 'Revocar una clave API',
    description: 'Deja de funcionar en ese momento, en las tres APIs.',
    access: 'customer',
    params: KEY_ID,
    responses: [{ status: 200, description: 'Clave revocada.', body: 'Revoked' }],
    handler: async ({ c, deps, user, params }) => {
      sessionOnly(user);
      await revokeKey(deps.db, user.id, params.id);
      return c.json({ revoked: true as const });
    },
  }),
];
