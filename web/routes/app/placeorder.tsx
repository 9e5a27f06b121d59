import { useLoaderData } from 'react-router';
import { CATEGORIES } from '../../../shared/categories';
import { AppLink } from '../../components/ui/app-link';
import { PageTitle } from '../../components/ui/card';
import { getCategories } from '../../features/orders/orders-api';
import { APP_NAME } from '../../lib/app-name';
import { signedInPage } from '../../lib/page-loader.server';
import type { Route } from './+types/placeorder';

export function meta() {
  return [{ title: `Nueva orden · ${APP_NAME}` }];
}

const DESCRIPTIONS: Record<string, string> = {
  IMEI: 'Consultas de operador, bloqueo, iCloud y lista negra por IMEI.',
  unlock: 'Liberación de equipos bloqueados a un operador.',
  licenses: 'Claves de software y antivirus entregadas por correo.',
  streaming: 'Suscripciones y tarjetas para plataformas de video y música.',
  gaming: 'Recargas y tarjetas regalo para tus juegos favoritos.',
  social: 'Seguidores, me gusta y vistas para tus redes.',
  cleanimei: 'Limpieza de reportes de IMEI en listas negras.',
};

/** Rendered on the server with its data (docs/decisions/0016); navigations load it in the browser. */
export async function loader({ request }: Route.LoaderArgs) {
  return signedInPage(request, () => clientLoader());
}

export async function clientLoader() {
  const counts = await getCategories();
  return {
    categories: CATEGORIES.map((c) => ({
      ...c,
      count: counts.find((x) => x.slug === c.slug)?.count ?? 0,
    })),
  };
}

export default function PlaceOrder() {
  const { categories } = useLoaderData<typeof clientLoader>();
  return (
    <>
      <PageTitle title="Nueva orden" subtitle="Elige una categoría para ver sus servicios." />
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {categories.map((c) => {
          const body = (
            <>
              <h2 className="text-lg font-semibold text-slate-900">{c.label}</h2>
              <p className="mt-1 text-sm text-slate-600">{DESCRIPTIONS[c.slug]}</p>
              <p className="mt-3 text-sm font-medium text-brand-700">
                {c.count === 0
                  ? 'Sin servicios por ahora'
                  : `${c.count} ${c.count === 1 ? 'servicio disponible' : 'servicios disponibles'}`}
              </p>
            </>
          );
          const cls = 'block h-full rounded-2xl border border-slate-200 bg-white p-6 shadow-sm';
          return (
            <li key={c.slug}>
              {c.count === 0 ? (
                <div className={`${cls} opacity-70`}>{body}</div>
              ) : (
                <AppLink
                  to={`/placeorder/${c.slug}`}
                  className={`${cls} hover:border-brand-600 focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none`}
                >
                  {body}
                </AppLink>
              )}
            </li>
          );
        })}
      </ul>
    </>
  );
}
