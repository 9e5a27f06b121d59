import { data } from 'react-router';
import { APP_NAME } from '../lib/app-name';
import { AppLink } from '../components/ui/app-link';
import { buttonClass } from '../components/ui/button';

/** A path the app does not have is answered 404, with this page. */
export function loader() {
  return data(null, { status: 404 });
}

export function meta() {
  return [{ title: `Nada que ver por aquí · ${APP_NAME}` }];
}

export function NotFound() {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center">
      <p aria-hidden="true" className="text-6xl font-black text-brand-600">
        404
      </p>
      <h1 className="mt-4 text-3xl font-bold text-slate-900">Nada que ver por aquí</h1>
      <p className="mt-3 text-lg text-slate-600">La ruta que buscas no existe.</p>
      <AppLink to="/" className={buttonClass('primary', 'mt-8')}>
        Volver al inicio
      </AppLink>
    </div>
  );
}

export default function NotFoundRoute() {
  return <NotFound />;
}
