import { redirect, useLoaderData } from 'react-router';
import { PageTitle } from '../../components/ui/card';
import { Section } from '../../components/ui/section';
import { loadAdminCustomers, runAdminCustomerAction } from '../../features/security/admin-actions';
import { CustomerSearch, SelectedCustomer } from '../../features/security/admin-customers';
import type { AdminCustomerResult } from '../../features/security/types';
import { APP_NAME } from '../../lib/app-name';
import { ready } from '../../lib/session';
import type { Route } from './+types/clientes';

export function meta() {
  return [{ title: `Clientes · ${APP_NAME}` }];
}

/** The search (`?q=`) and the chosen customer's security (`?id=`); the layout checks the role too. */
export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const session = await ready();
  if (session.status !== 'authenticated' || session.user.role !== 'admin')
    throw redirect('/dashboard');
  return loadAdminCustomers(new URL(request.url));
}
clientLoader.hydrate = true as const;

/** End the customer's sessions, block or unblock them (form data, by `intent`). */
export async function clientAction({
  request,
}: Route.ClientActionArgs): Promise<AdminCustomerResult> {
  return runAdminCustomerAction(await request.formData());
}

export default function AdminClientes() {
  const { query, customers, selected } = useLoaderData<typeof clientLoader>();
  const selectedId = selected?.ok ? selected.data.id : null;
  return (
    <>
      <PageTitle
        title="Clientes"
        subtitle="Busca una cuenta para ver cómo entra, dónde tiene sesiones abiertas y, si hace falta, cerrarlas o bloquearla."
      />
      <div className="flex flex-col gap-6">
        <Section id="buscar" title="Buscar cliente">
          <CustomerSearch query={query} customers={customers} selectedId={selectedId} />
        </Section>
        {selected ? (
          <Section id="seguridad-cliente" title="Seguridad de la cuenta">
            <SelectedCustomer selected={selected} />
          </Section>
        ) : null}
      </div>
    </>
  );
}
