import { z } from 'zod';
import { IdCursorSchema } from '../../../shared/schemas/query';
import { defineRoute } from '../../lib/route';
import { getWallet, listMovements, listTopups } from './wallet.service';

export const walletRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/wallet',
    operationId: 'getWallet',
    tag: 'Saldo',
    summary: 'Saldo disponible y retenido',
    description:
      'El saldo disponible (Saldo; negativo mientras el cliente debe a crédito), el retenido por órdenes en curso (En proceso), su límite de crédito (`creditLimit`, "0.00" sin crédito) y lo que todavía puede gastar (`spendable`: saldo más límite), en dólares estadounidenses.',
    access: 'customer',
    responses: [{ status: 200, description: 'El saldo.', body: 'WalletDto' }],
    handler: async ({ c, deps, user }) => c.json(await getWallet(deps.db, user.id)),
  }),
  defineRoute({
    method: 'get',
    path: '/api/wallet/movements',
    operationId: 'listWalletMovements',
    tag: 'Saldo',
    summary: 'Movimientos del saldo disponible',
    description: 'El extracto, del más reciente al más antiguo, en páginas de 20.',
    access: 'customer',
    query: z.object({ cursor: IdCursorSchema.optional() }),
    responses: [{ status: 200, description: 'Una página de movimientos.', body: 'MovementsPage' }],
    handler: async ({ c, deps, user, query }) =>
      c.json(await listMovements(deps.db, user.id, query.cursor)),
  }),
  defineRoute({
    method: 'get',
    path: '/api/wallet/topups',
    operationId: 'listTopups',
    tag: 'Saldo',
    summary: 'Recargas hechas, de todos los métodos',
    description: 'Las 50 recargas más recientes (tarjeta, pago manual y códigos).',
    access: 'customer',
    responses: [{ status: 200, description: 'Las recargas.', body: 'PaymentList' }],
    handler: async ({ c, deps, user }) => c.json({ items: await listTopups(deps.db, user.id) }),
  }),
];
