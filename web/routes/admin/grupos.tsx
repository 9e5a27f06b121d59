import { useLoaderData } from 'react-router';
import { PageTitle } from '../../components/ui/card';
import { LoadedList } from '../../components/ui/section';
import { PriceGroupsPage } from '../../features/price-groups/price-groups';
import { loadPriceGroupsPage } from '../../features/price-groups/price-groups-api';
import { APP_NAME } from '../../lib/app-name';
import { adminPage } from '../../lib/page-loader.server';
import { staffClientGuard } from '../../lib/staff-guard';
import type { Route } from './+types/grupos';

export function meta() {
  return [{ title: `Grupos de precios · ${APP_NAME}` }];
}

/** Rendered on the server with its data (docs/decisions/0016); navigations load it in the browser. */
export async function loader({ request }: Route.LoaderArgs) {
  return adminPage(request, loadPriceGroupsPage, 'catalogue');
}

export async function clientLoader() {
  await staffClientGuard('catalogue');
  return loadPriceGroupsPage();
}

/** Price groups: a discount per group, overrides per category or service, one default. */
export default function AdminGrupos() {
  const { groups, services } = useLoaderData<typeof loader>();
  return (
    <>
      <PageTitle
        title="Grupos de precios"
        subtitle="Cada cliente paga los precios de su grupo; el predeterminado es el de toda cuenta nueva. Los cambios se aplican desde la próxima orden."
      />
      <LoadedList value={groups} what="los grupos de precios">
        {(items) => <PriceGroupsPage groups={items} services={services.ok ? services.data : []} />}
      </LoadedList>
    </>
  );
}
