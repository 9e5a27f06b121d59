// /soporte/nuevo «Nuevo ticket»: from /soporte, or from an order (?orden=) or a top-up (?pago=).
import { Link, useLoaderData } from 'react-router';
import { Card, PageTitle } from '../../components/ui/card';
import { runCreateTicket } from '../../features/tickets/customer-actions';
import { NewTicketForm } from '../../features/tickets/new-ticket-form';
import { newTicketPage } from '../../features/tickets/new-ticket';
import { APP_NAME } from '../../lib/app-name';
import { signedInPage } from '../../lib/page-loader.server';
import type { Route } from './+types/soporte-nuevo';

export function meta() {
  return [{ title: `Nuevo ticket · ${APP_NAME}` }];
}

export async function loader({ request }: Route.LoaderArgs) {
  return signedInPage(request, () => newTicketPage(request));
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  return newTicketPage(request);
}

export async function clientAction({ request }: Route.ClientActionArgs) {
  return runCreateTicket(await request.formData());
}

export default function SoporteNuevo() {
  const { orders, draft } = useLoaderData<typeof loader>();
  return (
    <>
      <p className="mb-2 text-sm">
        <Link to="/soporte" className="text-brand-700 font-medium underline">
          Volver a Soporte
        </Link>
      </p>
      <PageTitle
        title="Nuevo ticket"
        subtitle="Cuéntanos el problema; si es sobre una orden, márcala para que la veamos enseguida."
      />
      <Card className="max-w-2xl p-4 sm:p-6">
        <NewTicketForm key={draft.orderIds.join() + draft.subject} orders={orders} draft={draft} />
      </Card>
    </>
  );
}
