import { DropdownMenu } from 'radix-ui';
import { useLocation, useNavigate, useNavigation } from 'react-router';
import { SECONDARY_NAV } from '../../lib/account-navigation';
import { useSession } from '../../lib/session-state';
import { customerUnreadTickets, supportLabel } from '../../lib/support-badge';
import { AppNavLink } from '../ui/app-link';
import { buttonClass } from '../ui/button';

/** The signed-in secondary bar; on small screens it collapses into the "Menú" dropdown. */
export function SecondaryBar() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const session = useSession();
  const unread = customerUnreadTickets(session.status === 'authenticated' ? session.me : null);
  const current = SECONDARY_NAV.find((i) => pathname === i.url || pathname.startsWith(`${i.url}/`));
  // The page chosen in the phone's «Menú», while it loads.
  const going =
    navigation.state === 'loading'
      ? SECONDARY_NAV.find((i) => navigation.location.pathname === i.url)
      : undefined;
  return (
    <div className="border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl items-center px-4">
        <nav aria-label="Menú de la cuenta" className="hidden w-full md:block">
          <ul className="flex gap-1 overflow-x-auto py-1.5">
            {SECONDARY_NAV.map((item) => (
              <li key={item.id}>
                <AppNavLink
                  to={item.url}
                  className={({ isActive }) =>
                    `block rounded-lg px-3 py-2 text-sm font-medium whitespace-nowrap ${
                      isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-100'
                    }`
                  }
                >
                  <ItemText id={item.id} title={item.title} unread={unread} />
                </AppNavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="w-full py-1.5 md:hidden">
          <DropdownMenu.Root modal={false}>
            <DropdownMenu.Trigger className={buttonClass('secondary', 'w-full justify-between')}>
              <span>
                Menú
                {unread > 0 ? <UnreadDot unread={unread} /> : null}
              </span>
              {going && going.id !== current?.id ? (
                <span className="truncate text-brand-800" data-pending="">
                  {going.title}
                  <span className="sr-only"> (cargando)</span>
                </span>
              ) : (
                <span className="truncate text-slate-500">{current?.title}</span>
              )}
            </DropdownMenu.Trigger>
            <DropdownMenu.Portal>
              <DropdownMenu.Content
                align="start"
                sideOffset={6}
                className="z-50 w-[var(--radix-dropdown-menu-trigger-width)] rounded-xl border border-slate-200 bg-white p-1.5 shadow-lg"
              >
                {SECONDARY_NAV.map((item) => (
                  <DropdownMenu.Item
                    key={item.id}
                    onSelect={() => void navigate(item.url)}
                    className={`cursor-pointer rounded-lg px-3 py-2.5 text-sm outline-none data-[highlighted]:bg-brand-50 ${
                      current?.id === item.id ? 'font-semibold text-brand-800' : 'text-slate-800'
                    }`}
                  >
                    <ItemText id={item.id} title={item.title} unread={unread} />
                  </DropdownMenu.Item>
                ))}
              </DropdownMenu.Content>
            </DropdownMenu.Portal>
          </DropdownMenu.Root>
        </div>
      </div>
    </div>
  );
}

/** «Soporte» with its count of unread tickets (read out as «Soporte, 2 sin leer»). */
export function ItemText({ id, title, unread }: { id: string; title: string; unread: number }) {
  if (id !== 'soporte' || unread <= 0) return <>{title}</>;
  return (
    <>
      <span aria-hidden="true">
        {title}{' '}
        <span
          className="rounded-full bg-amber-200 px-1.5 text-xs font-semibold text-amber-950 tabular-nums"
          data-testid="support-unread"
        >
          {unread}
        </span>
      </span>
      <span className="sr-only">{supportLabel(unread)}</span>
    </>
  );
}

/** The collapsed menu's hint that «Soporte» has unread answers. */
function UnreadDot({ unread }: { unread: number }) {
  return (
    <>
      {' '}
      <span
        aria-hidden="true"
        className="ml-1 rounded-full bg-amber-200 px-1.5 text-xs font-semibold text-amber-950 tabular-nums"
      >
        {unread}
      </span>
      <span className="sr-only">{`(soporte: ${unread} sin leer)`}</span>
    </>
  );
}
