import { useLoaderData, type ShouldRevalidateFunctionArgs } from 'react-router';
import { PageTitle } from '../../components/ui/card';
import { LoadedList, Section } from '../../components/ui/section';
import {
  loadAdminServices,
  loadStockSummaries,
  loadSupplierChoices,
  runServicesAction,
} from '../../features/admin-services/actions';
import { BulkPrice } from '../../features/admin-services/bulk-price';
import { ServiceCatalogue } from '../../features/admin-services/catalogue';
import type { ServicesActionResult } from '../../features/admin-services/types';
import { APP_NAME } from '../../lib/app-name';
import { adminPage } from '../../lib/page-loader.server';
import { staffClientGuard } from '../../lib/staff-guard';
import type { Route } from './+types/servicios';

export function meta() {
  return [{ title: `Servicios · ${APP_NAME}` }];
}

/**
 * Every service, active or not, the suppliers the routes editor offers, and the stock of each
 * stock service.
 */
async function servicesPage() {
  const [services, suppliers] = await Promise.all([loadAdminServices(), loadSupplierChoices()]);
  const stock = await loadStockSummaries(services);
  return { services, suppliers, stock };
}

/** Rendered on the server with its data (docs/decisions/0016); navigations load it in the browser. */
export async function loader({ request }: Route.LoaderArgs) {
  return adminPage(request, servicesPage, 'catalogue');
}

/** The layout checks the role too. */
export async function clientLoader() {
  await staffClientGuard('catalogue');
  return servicesPage();
}

/** One action for every form of the page (JSON bodies), told apart by `intent`. */
export async function clientAction({
  request,
}: Route.ClientActionArgs): Promise<ServicesActionResult> {
  return runServicesAction(request);
}

/** A refused change left the catalogue as it was: no need to load it again. */
export function shouldRevalidate({
  actionResult,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if ((actionResult as ServicesActionResult | undefined)?.ok === false) return false;
  return defaultShouldRevalidate;
}

export default function AdminServicios() {
  const { services, suppliers, stock } = useLoaderData<typeof loader>();
  return (
    <>
      <PageTitle
        title="Servicios"
        subtitle="Crea y edita los servicios del catálogo, sus precios y los datos que piden; actívalos, desactívalos y ordénalos, y elige a qué proveedores se envían. Cada cambio queda registrado."
      />
      <LoadedList value={services} what="los servicios">
        {(items) => (
          <div className="flex flex-col gap-6">
            <ServiceCatalogue services={items} suppliers={suppliers} stock={stock} />
            <Section
              id="precios-en-bloque"
              title="Cambio de precios en bloque"
              description="Sube o baja en un porcentaje el precio de todos los servicios de una categoría o de todo el catálogo."
            >
              <BulkPrice services={items} />
            </Section>
          </div>
        )}
      </LoadedList>
    </>
  );
}
