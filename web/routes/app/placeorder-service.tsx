import { data, useLoaderData } from 'react-router';
import { AppLink } from '../../components/ui/app-link';
import { Card, PageTitle } from '../../components/ui/card';
import { categoryLabel, FieldList, OrderForm, priceText } from '../../features/orders/order-form';
import { getService } from '../../features/orders/orders-api';
import { AvailabilityBadge } from '../../features/orders/stock-availability';
import { ApiError } from '../../lib/api';
import { APP_NAME } from '../../lib/app-name';
import type { Route } from './+types/placeorder-service';
import { signedInPage } from '../../lib/page-loader.server';

export function meta({ data: loaderData }: Route.MetaArgs) {
  return [{ title: `${loaderData?.service.name ?? 'Servicio'} · ${APP_NAME}` }];
}

/** Rendered on the server with its data (docs/decisions/0016); navigations load it in the browser. */
export async function loader(args: Route.LoaderArgs) {
  return signedInPage(args.request, () => clientLoader(args));
}

export async function clientLoader({ params }: Pick<Route.ClientLoaderArgs, 'request' | 'params'>) {
  try {
    const service = await getService(params.id);
    if (service.category !== 'IMEI') throw data(null, { status: 404 });
    return { service };
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 400))
      throw data(null, { status: 404 });
    throw err;
  }
}

export default function PlaceOrderService() {
  const { service } = useLoaderData<typeof clientLoader>();
  return (
    <>
      <PageTitle title={service.name} subtitle={categoryLabel(service.category)} />
      <p className="-mt-4 mb-6 text-sm">
        <AppLink to={`/placeorder/${service.category}`} className="text-brand-700 underline">
          ← Volver a {categoryLabel(service.category)}
        </AppLink>
      </p>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <h2 className="text-lg font-semibold text-slate-900">Sobre el servicio</h2>
          <p className="mt-2 text-slate-700">{service.description}</p>
          <dl className="mt-4 grid grid-cols-2 gap-2 text-sm">
            <dt className="text-slate-600">Categoría</dt>
            <dd className="font-medium text-slate-900">{categoryLabel(service.category)}</dd>
            <dt className="text-slate-600">Entrega</dt>
            <dd className="font-medium text-slate-900">
              {service.deliveryTime}
              {service.stock !== null ? (
                <>
                  {' '}
                  <AvailabilityBadge service={service} />
                </>
              ) : null}
            </dd>
            <dt className="text-slate-600">Precio</dt>
            <dd className="font-medium text-slate-900">{priceText(service)}</dd>
          </dl>
          <h3 className="mt-4 font-semibold text-slate-900">Datos que necesita</h3>
          <div className="mt-2 text-sm">
            <FieldList fields={service.fields} />
          </div>
        </Card>
        <Card>
          <h2 className="mb-4 text-lg font-semibold text-slate-900">Hacer la orden</h2>
          <OrderForm service={service} />
        </Card>
      </div>
    </>
  );
}
