import { useEffect, useId, useRef, useState } from 'react';
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

/**
 * The small-screen drawer: a native modal <dialog> (Escape closes it, the page behind is inert,
 * focus goes back to "Menú"), so the public pages need no dialog library.
 */
function PublicDrawer() {
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const close = () => dialog.current?.close();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    // A click on the overlay lands on the <dialog> itself (its ::backdrop); inside the panel it
    // lands on the panel's content. Keyboard users close it with Escape or "Cerrar menú".
    const onClick = (event: MouseEvent) => {
      if (event.target === element) element.close();
    };
    element.addEventListener('click', onClick);
    return () => element.removeEventListener('click', onClick);
  }, []);

  return (
    <>
      <button
        ref={trigger}
        type="button"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={`${id}-menu`}
        onClick={() => {
          dialog.current?.showModal();
          setOpen(true);
        }}
        className={buttonClass('secondary', 'md:hidden')}
      >
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
      </button>
      <dialog
        ref={dialog}
        id={`${id}-menu`}
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-description`}
        onClose={() => {
          setOpen(false);
          trigger.current?.focus({ preventScroll: true });
        }}
        className="fixed inset-y-0 right-0 left-auto m-0 h-full max-h-none w-72 max-w-[85vw] border-0 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-900/40 focus:outline-none"
      >
        <div className="flex h-full flex-col gap-4 p-6">
          <div className="flex items-center justify-between">
            <h2 id={`${id}-title`} className="text-lg font-semibold">
              Menú
            </h2>
            <button
              type="button"
              onClick={close}
              className={buttonClass('ghost', 'px-3')}
              aria-label="Cerrar menú"
            >
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
            </button>
          </div>
          <p id={`${id}-description`} className="sr-only">
            Enlaces a las secciones del sitio
          </p>
          <nav aria-label="Navegación principal (celular)">
            <ul className="flex flex-col gap-1">
              {PUBLIC_NAV.map((item) => (
                <li key={item.id}>
                  <AppNavLink
                    to={item.url}
                    end
                    onClick={close}
                    className={(s) => `block ${linkClass(s)} text-base`}
                  >
                    {item.title}
                  </AppNavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="mt-auto flex flex-col gap-2 border-t border-slate-200 pt-4">
            <AppLink to="/login" onClick={close} className={buttonClass('secondary')}>
              Iniciar sesión
            </AppLink>
            <AppLink to="/register" onClick={close} className={buttonClass('primary')}>
              Crear cuenta
            </AppLink>
          </div>
        </div>
      </dialog>
    </>
  );
}
