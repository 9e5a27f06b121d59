import { APP_NAME } from '../../lib/app-name';
import { PUBLIC_NAV } from '../../lib/navigation';
import { AppLink } from '../ui/app-link';

export function Footer() {
  return (
    <footer className="mt-16 border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-8 md:flex-row md:items-center md:justify-between">
        <div className="text-sm text-slate-600">
          <p>
            © <span suppressHydrationWarning>{new Date().getFullYear()}</span> {APP_NAME}. Todos los
            derechos reservados
          </p>
          <nav aria-label="Enlaces del pie de página" className="mt-2">
            <ul className="flex flex-wrap gap-x-4 gap-y-1">
              {PUBLIC_NAV.map((item) => (
                <li key={item.id}>
                  <AppLink to={item.url} className="hover:text-brand-700 hover:underline">
                    {item.title}
                  </AppLink>
                </li>
              ))}
              <li>
                <AppLink
                  to="/terminosycondiciones"
                  className="hover:text-brand-700 hover:underline"
                >
                  Términos y condiciones
                </AppLink>
              </li>
            </ul>
          </nav>
        </div>
        <button
          type="button"
          onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
          className="inline-flex min-h-11 items-center gap-2 self-start rounded-lg border border-slate-300 px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100 md:self-auto"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
            <path d="M10 4.5a.75.75 0 0 1 .53.22l5 5a.75.75 0 1 1-1.06 1.06L10.75 7.06V15a.75.75 0 0 1-1.5 0V7.06L5.53 10.78a.75.75 0 0 1-1.06-1.06l5-5A.75.75 0 0 1 10 4.5Z" />
          </svg>
          Volver arriba
        </button>
      </div>
    </footer>
  );
}
