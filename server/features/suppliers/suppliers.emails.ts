import { formatSupplierMoney } from '../../../shared/money';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { user } from '../../db/schema/auth';
import type { Env } from '../../env';
import { emailLayout } from '../../lib/email-templates';
import type { Logger } from '../../lib/logger';
import type { MailMessage, Mailer } from '../../lib/mail';
import { mailAfterCommit } from '../../lib/notify';

type MailDeps = { db: Db; env: Env; mailer: Mailer; logger: Logger };

/** Every verified admin address. */
async function adminAddresses(db: Db): Promise<string[]> {
  const rows = await db
    .select({ email: user.email })
    .from(user)
    .where(and(eq(user.role, 'admin'), eq(user.emailVerified, true)));
  return rows.map((r) => r.email);
}

/** Sends one message to every admin, after the change that caused it has committed. */
function mailAdmins(
  deps: MailDeps,
  what: string,
  context: Record<string, unknown>,
  build: (to: string) => MailMessage,
): void {
  void adminAddresses(deps.db)
    .then((addresses) => {
      for (const to of addresses) mailAfterCommit(deps, what, context, () => build(to));
    })
    .catch((err: unknown) => deps.logger.error({ err, ...context }, `${what}: admins not read`));
}

export function notifyLowBalance(
  deps: MailDeps,
  supplier: { id: string; name: string },
  balance: string,
  threshold: string,
  currency: string,
): void {
  mailAdmins(deps, 'supplier low balance', { supplierId: supplier.id }, (to) => {
    const body = emailLayout(
      deps.env.APP_NAME,
      `Saldo bajo en ${supplier.name}`,
      [
        `El saldo de ${supplier.name} bajó a ${formatSupplierMoney(balance, currency)}, por debajo del aviso de ${formatSupplierMoney(threshold, currency)}.`,
        'Recarga la cuenta del proveedor: sin saldo, sus órdenes esperarán o pasarán al siguiente proveedor.',
      ],
      { label: 'Ver proveedores', url: `${deps.env.APP_URL}/admin/proveedores` },
    );
    return { to, subject: `Saldo bajo en el proveedor ${supplier.name}`, ...body };
  });
}

export type Deactivation = { serviceId: string; name: string; reason: string };

export function notifyDeactivations(deps: MailDeps, deactivated: Deactivation[]): void {
  if (deactivated.length === 0) return;
  mailAdmins(deps, 'services deactivated by price sync', { count: deactivated.length }, (to) => {
    const body = emailLayout(
      deps.env.APP_NAME,
      deactivated.length === 1
        ? 'Un servicio se desactivó al sincronizar precios'
        : `${deactivated.length} servicios se desactivaron al sincronizar precios`,
      [
        'Para no vender por debajo del costo, estos servicios dejaron de ofrecerse:',
        ...deactivated.map((d) => `• ${d.name}: ${d.reason}`),
        'Revisa su precio o su proveedor y vuelve a activarlos cuando quieras.',
      ],
      { label: 'Ver servicios', url: `${deps.env.APP_URL}/admin/servicios` },
    );
    return { to, subject: 'Servicios desactivados por cambio de costo', ...body };
  });
}
