// The low-stock alert to the admins (once per crossing of the threshold, after commit).
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { user } from '../../db/schema/auth';
import { service } from '../../db/schema/catalogue';
import type { Env } from '../../env';
import { emailLayout } from '../../lib/email-templates';
import type { Logger } from '../../lib/logger';
import type { Mailer } from '../../lib/mail';
import { mailAfterCommit } from '../../lib/notify';
import { plural } from '../../../shared/plural';

type MailDeps = { db: Db; env: Env; mailer: Mailer; logger: Logger };

/** E-mails every verified admin that a stock service is at or below its threshold. */
export function notifyLowStock(deps: MailDeps, serviceId: string): void {
  const context = { serviceId };
  void (async () => {
    const [svc] = await deps.db
      .select({
        name: service.name,
        threshold: service.lowStockThreshold,
        available: sql<number>`(SELECT count(*)::int FROM stock_item i WHERE i.service_id = ${service.id} AND i.state = 'available')`,
      })
      .from(service)
      .where(eq(service.id, serviceId));
    if (!svc) return;
    const admins = await deps.db
      .select({ email: user.email })
      .from(user)
      .where(and(eq(user.role, 'admin'), eq(user.emailVerified, true)));
    for (const { email } of admins)
      mailAfterCommit(deps, 'low stock', context, () => {
        const left =
          svc.available === 0
            ? 'ya no le queda ningún artículo'
            : `le ${svc.available === 1 ? 'queda' : 'quedan'} ${plural(svc.available, 'artículo', 'artículos')}`;
        const body = emailLayout(
          deps.env.APP_NAME,
          `Poco stock: ${svc.name}`,
          [
            `Al servicio «${svc.name}» ${left} en stock (el aviso está en ${svc.threshold}).`,
            'Carga más artículos: sin stock, sus órdenes pasan a sus proveedores o se rechazan con «Agotado».',
          ],
          { label: 'Ver servicios', url: `${deps.env.APP_URL}/admin/servicios` },
        );
        return { to: email, subject: `Poco stock en ${svc.name}`, ...body };
      });
  })().catch((err: unknown) => deps.logger.error({ err, ...context }, 'low stock e-mail failed'));
}
