import { Dialog } from 'radix-ui';
import { PUBLIC_NAV } from '../../lib/navigation';
import { AppLink, AppNavLink } from '../ui/app-link';
import { buttonClass } from '../ui/button';

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-lg px-3 py-2 text-sm font-medium ${isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-100'}`;

/** Public navigation row (wide screens) and the "Menú" drawer (small screens). */
export function PublicNav() {
  return (
    <div className="flex items-center gap-2">
      <nav aria-label="Navegación principal" className="hidden md:block">
        <ul className="flex items-center gap-1">
          {PUBLIC_NAV.map((item) => (
            <li key={item.id}>
              <AppNavLink to={item.url} end className={linkClass}>
                {item.title}
              </AppNavLink>
            </li>
          ))}
        </ul>
      </nav>
      <AppLink to="/login" className={buttonClass('ghost', 'max-sm:hidden')}>
        Iniciar sesión
      </AppLink>
      <AppLink to="/register" className={buttonClass('primary', 'max-sm:hidden')}>
        Crear cuenta
      </AppLink>
      <PublicDrawer />
    </div>
  );
}

function PublicDrawer() {
  return (
    <Dialog.Root>
      <Dialog.Trigger className={buttonClass('secondary', 'md:hidden')}>
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="size-5"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
        >
          <path d="M4 6h16M4 12h16M4 18h16" strokeLinecap="round" />
        </svg>
        Menú
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/40" />
        <Dialog.Content className="fixed inset-y-0 right-0 z-50 flex w-72 max-w-[85vw] flex-col gap-4 bg-white p-6 shadow-xl focus:outline-none">
          <div className="flex items-center justify-between">
            <Dialog.Title className="text-lg font-semibold">Menú</Dialog.Title>
            <Dialog.Close className={buttonClass('ghost', 'px-3')} aria-label="Cerrar menú">
              <svg
                aria-hidden="true"
                viewBox="0 0 24 24"
                className="size-5"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
              >
                <path d="M6 6l12 12M18 6L6 18" strokeLinecap="round" />
              </svg>
            </Dialog.Close>
          </div>
          <Dialog.Description className="sr-only">
            Enlaces a las secciones del sitio
          </Dialog.Description>
          <nav aria-label="Navegación principal (móvil)">
            <ul className="flex flex-col gap-1">
              {PUBLIC_NAV.map((item) => (
                <li key={item.id}>
                  <Dialog.Close asChild>
                    <AppNavLink
                      to={item.url}
                      end
                      className={(s) => `block ${linkClass(s)} text-base`}
                    >
                      {item.title}
                    </AppNavLink>
                  </Dialog.Close>
                </li>
              ))}
            </ul>
          </nav>
          <div className="mt-auto flex flex-col gap-2 border-t border-slate-200 pt-4">
            <Dialog.Close asChild>
              <AppLink to="/login" className={buttonClass('secondary')}>
                Iniciar sesión
              </AppLink>
            </Dialog.Close>
            <Dialog.Close asChild>
              <AppLink to="/register" className={buttonClass('primary')}>
                Crear cuenta
              </AppLink>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
