import { useLoaderData } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { PageTitle } from '../../components/ui/card';
import { LoadedList, Section } from '../../components/ui/section';
import {
  loadRemoteCatalogue,
  loadSuppliers,
  runSuppliersAction,
  type CatalogueFilters,
} from '../../features/suppliers/actions';
import { CatalogueBrowser } from '../../features/suppliers/catalogue-browser';
import { ConnectSupplierForm } from '../../features/suppliers/supplier-form';
import { SupplierList } from '../../features/suppliers/supplier-list';
import {
  FETCHER_KEYS,
  type Supplier,
  type SuppliersActionResult,
} from '../../features/suppliers/types';
import { APP_NAME } from '../../lib/app-name';
import { staffClientGuard } from '../../lib/staff-guard';
import type { Route } from './+types/proveedores';

export function meta() {
  return [{ title: `Proveedores · ${APP_NAME}` }];
}

/** The suppliers and, with `?catalogo=<id>`, that supplier's catalogue (filtered by `q`, `grupo`). */
export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  await staffClientGuard('suppliers');
  const params = new URL(request.url).searchParams;
  const catalogueId = params.get('catalogo')?.trim() || null;
  const filters: CatalogueFilters = {
    q: (params.get('q') ?? '').trim(),
    group: params.get('grupo') ?? '',
  };
  const [suppliers, catalogue] = await Promise.all([
    loadSuppliers(),
    catalogueId ? loadRemoteCatalogue(catalogueId, filters) : null,
  ]);
  return { suppliers, catalogueId, filters, catalogue };
}
clientLoader.hydrate = true as const;

/** One action for every form of the page (JSON bodies), told apart by `intent`. */
export async function clientAction({
  request,
}: Route.ClientActionArgs): Promise<SuppliersActionResult> {
  return runSuppliersAction(request);
}

export default function AdminProveedores() {
  const { suppliers, catalogueId, filters, catalogue } = useLoaderData<typeof clientLoader>();
  return (
    <>
      <PageTitle
        title="Proveedores"
        subtitle="Conecta los paneles DHRU Fusion y SMM a los que envías las órdenes, vigila su saldo y su estado, e importa sus servicios al catálogo."
      />
      <div className="flex flex-col gap-6">
        <Section
          id="proveedores-conectados"
          title="Proveedores conectados"
          description="Si las últimas llamadas a un proveedor fallan, queda «Fallando»; desactivado, no recibe órdenes nuevas."
        >
          <LoadedList value={suppliers} what="los proveedores">
            {(items) => <SupplierList suppliers={items} catalogueId={catalogueId} />}
          </LoadedList>
        </Section>
        {catalogueId && catalogue ? (
          <CatalogueSection
            key={catalogueId}
            supplier={suppliers.ok ? suppliers.data.find((s) => s.id === catalogueId) : undefined}
            filters={filters}
            catalogue={catalogue}
          />
        ) : null}
        <Section
          id="conectar-proveedor"
          title="Conectar proveedor"
          description="Probamos la conexión leyendo el saldo antes de guardar nada: si el proveedor no acepta los datos, verás su respuesta."
        >
          <ConnectSupplierForm fetcherKey={FETCHER_KEYS.create} />
        </Section>
      </div>
    </>
  );
}

function CatalogueSection({
  supplier,
  filters,
  catalogue,
}: {
  supplier: Supplier | undefined;
  filters: CatalogueFilters;
  catalogue: NonNullable<Awaited<ReturnType<typeof clientLoader>>['catalogue']>;
}) {
  if (!supplier || !catalogue.ok)
    return (
      <Alert tone="error">
        No pudimos abrir el catálogo. {catalogue.ok ? 'Ese proveedor no existe.' : catalogue.error}
      </Alert>
    );
  return <CatalogueBrowser supplier={supplier} filters={filters} catalogue={catalogue.data} />;
}
