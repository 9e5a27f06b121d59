import { UpdateProfileSchema } from '../../../shared/schemas/auth';
import { defineRoute } from '../../lib/route';
import { getMe, updateProfile } from './me.service';

export const meRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/me',
    operationId: 'getMe',
    tag: 'Cuenta',
    summary: 'Datos de la cuenta y saldo disponible',
    access: 'customer',
    responses: [{ status: 200, description: 'La cuenta que ha iniciado sesión.', body: 'Me' }],
    handler: async ({ c, deps, user }) => c.json(await getMe(deps.db, user)),
  }),
  defineRoute({
    method: 'patch',
    path: '/api/me',
    operationId: 'updateMe',
    tag: 'Cuenta',
    summary: 'Cambiar el nombre de la cuenta',
    access: 'customer',
    body: { schema: UpdateProfileSchema },
    responses: [{ status: 200, description: 'La cuenta con el nombre nuevo.', body: 'Me' }],
    handler: async ({ c, deps, user, body }) => c.json(await updateProfile(deps.db, user, body)),
  }),
];
