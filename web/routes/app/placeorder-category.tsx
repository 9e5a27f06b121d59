import { useEffect, useRef, useState } from 'react';
import { data, useLoaderData } from 'react-router';
import { CATEGORIES } from '../../../shared/categories';
import { AppLink } from '../../components/ui/app-link';
import { Card, PageTitle } from '../../components/ui/card';
import { TextField } from '../../components/ui/field';
import { OrderForm, priceText } from '../../features/orders/order-form';
import { getServices } from '../../features/orders/orders-api';
import { AvailabilityBadge } from '../../features/orders/stock-availability';
import { APP_NAME } from '../../lib/app-name';
import type { Route } from './+types/placeorder-category';
import { signedInPage } from '../../lib/page-loader.server';

export function meta({ data: loaderData }: Route.MetaArgs) {
  const label = loaderData?.category.label ?? 'Nueva orden';
  return [{ title: `${label} · ${APP_NAME}` }];
}

/** Rendered on the server with its data (docs/decisions/0016); navigations load it in the browser. */
export async function loader(args: Route.LoaderArgs) {
  return signedInPage(args.request, () => clientLoader(args));
}

export async function clientLoader({ params }: Pick<Route.ClientLoaderArgs, 'request' | 'params'>) {
  const category = CATEGORIES.find((c) => c.slug === params.category);
  if (!category) throw data(null, { status: 404 });
  const services = await getServices(category.slug);
  return { category, services };
}

export default function PlaceOrderCategory() {
  const { category, services } = useLoaderData<typeof clientLoader>();
  const [query, setQuery] = useState('');
  const [selectedId, setSelectedId] = useState<string | null>(services[0]?.id ?? null);
  const q = query.trim().toLowerCase();
  const visible = q ? services.filter((s) => s.name.toLowerCase().includes(q)) : services;
  const selected = services.find((s) => s.id === selectedId) ?? null;
  // A service chosen by the person (not the first one, preselected): when its form is out of
  // view (on a phone it sits below the list), it is scrolled into view and its heading takes the
  // focus, so the keyboard goes on into the form.
  const [chosen, setChosen] = useState(0);
  const formHeading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const heading = formHeading.current;
    if (chosen === 0 || !heading) return;
    const top = heading.getBoundingClientRect().top;
    if (top < 0 || top > window.innerHeight * 0.6) {
      heading.focus({ preventScroll: true });
      const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
      heading.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' });
    }
  }, [chosen]);

  return (
    <>
      <PageTitle title={category.label} subtitle="Elige un servicio y completa la orden." />
      <p className="-mt-4 mb-6 text-sm">
        <AppLink to="/placeorder" className="text-brand-700 underline">
          ← Todas las categorías
        </AppLink>
      </p>
      {services.length === 0 ? (
        <Card>
          <p className="text-slate-600">Sin servicios por ahora en esta categoría.</p>
        </Card>
      ) : (
        <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          <section aria-label="Servicios" className="flex flex-col gap-3">
            <TextField
              label="Buscar servicio"
              type="search"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
            />
            {visible.length === 0 ? (
              <p className="text-slate-600">Ningún servicio coincide con la búsqueda.</p>
            ) : (
              <ul className="flex flex-col gap-2">
                {visible.map((s) => (
                  <li key={s.id}>
                    <button
                      type="button"
                      aria-pressed={s.id === selectedId}
                      onClick={() => {
                        setSelectedId(s.id);
                        setChosen((n) => n + 1);
                      }}
                      className={`w-full rounded-xl border p-4 text-left focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none ${
                        s.id === selectedId
                          ? 'border-brand-600 bg-brand-50'
                          : 'border-slate-200 bg-white hover:border-slate-400'
                      }`}
                    >
                      <span className="block font-semibold text-slate-900">{s.name}</span>
                      <span className="mt-1 block text-sm text-slate-700">
                        {priceText(s)} · {s.deliveryTime}
                      </span>
                      {s.stock !== null ? (
                        <span className="mt-1.5 block">
                          <AvailabilityBadge service={s} />
                        </span>
                      ) : null}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section aria-label="Orden">
            {selected ? (
              <Card>
                <h2
                  ref={formHeading}
                  tabIndex={-1}
                  className="scroll-mt-4 text-xl font-semibold text-slate-900 focus:outline-none"
                >
                  {selected.name}
                </h2>
                <p className="mt-2 text-slate-700">{selected.description}</p>
                <dl className="mt-3 grid grid-cols-2 gap-2 text-sm">
                  <dt className="text-slate-600">Entrega</dt>
                  <dd className="font-medium text-slate-900">
                    {selected.deliveryTime}
                    {selected.stock !== null ? (
                      <>
                        {' '}
                        <AvailabilityBadge service={selected} />
                      </>
                    ) : null}
                  </dd>
                  <dt className="text-slate-600">Precio</dt>
                  <dd className="font-medium text-slate-900">{priceText(selected)}</dd>
                </dl>
                {selected.category === 'IMEI' ? (
                  <p className="mt-2 text-sm">
                    <AppLink
                      to={`/placeorder/IMEI/${selected.id}`}
                      className="text-brand-700 underline"
                    >
                      Ver detalles
                    </AppLink>
                  </p>
                ) : null}
                <div className="mt-5 border-t border-slate-100 pt-5">
                  <OrderForm service={selected} />
                </div>
              </Card>
            ) : (
              <Card>
                <p className="text-slate-600">Elige un servicio de la lista.</p>
              </Card>
            )}
          </section>
        </div>
      )}
    </>
  );
}
