import { z } from 'zod';
import { CreditLimitInputSchema } from '../../../shared/schemas/credit';
import { defineRoute } from '../../lib/route';
import { getCredit, listDebtors, setCreditLimit } from './credit.service';

/** A customer's `:id` (Better Auth ids, as in admin.routes.ts). */
const CUSTOMER_ID = z.object({
  id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .describe('Identificador del cliente.'),
});

/** Credit lines (docs/domain.md §3): admins and finance give, change and see them. */
export const creditRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/admin/users/:id/credit-limit',
    operationId: 'adminGetCreditLimit',
    tag: 'Administración',
    summary: 'Límite de crédito de un cliente',
    description:
      'Su límite de crédito, su saldo (negativo mientras debe), lo que todavía puede gastar y lo que debe.',
    access: 'admin',
    roles: ['admin', 'finance'],
    params: CUSTOMER_ID,
    responses: [{ status: 200, description: 'Su crédito.', body: 'CreditLimitResult' }],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, params }) => c.json(await getCredit(deps.db, params.id)),
  }),
  defineRoute({
    method: 'put',
    path: '/api/admin/users/:id/credit-limit',
    operationId: 'adminSetCreditLimit',
    tag: 'Administración',
    summary: 'Dar, cambiar o quitar el límite de crédito de un cliente',
    description:
      'Con un límite, sus órdenes pueden dejar su saldo disponible hasta en menos ese importe, y no más allá. `"0.00"` quita el crédito. Se puede bajar o quitar aunque deba más que el nuevo límite: la deuda se mantiene, las órdenes nuevas se rechazan (402) hasta que su saldo vuelva a estar por encima de menos el límite, y cada recarga paga primero la deuda. Auditado (límite anterior → nuevo). Nadie cambia su propio límite (403).',
    access: 'admin',
    roles: ['admin', 'finance'],
    params: CUSTOMER_ID,
    body: { schema: CreditLimitInputSchema },
    responses: [{ status: 200, description: 'El crédito ya cambiado.', body: 'CreditLimitResult' }],
    errors: ['NOT_FOUND'],
    handler: async ({ c, deps, user, params, body }) =>
      c.json(
        await setCreditLimit(deps.db, {
          actorId: user.id,
          userId: params.id,
          amount: body.amount,
          ipAddress: c.get('clientIp'),
        }),
      ),
  }),
  defineRoute({
    method: 'get',
    path: '/api/admin/debts',
    operationId: 'adminListDebts',
    tag: 'Administración',
    summary: 'Quién debe cuánto',
    description:
      'Los clientes con saldo negativo (a crédito), de la deuda mayor a la menor (hasta 500), con su límite y si deben más que él (`overLimit`: el límite se bajó después).',
    access: 'admin',
    roles: ['admin', 'finance'],
    responses: [{ status: 200, description: 'Las deudas.', body: 'DebtorList' }],
    handler: async ({ c, deps }) => c.json(await listDebtors(deps.db)),
  }),
];
