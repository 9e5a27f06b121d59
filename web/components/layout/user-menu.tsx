import { DropdownMenu } from 'radix-ui';
import { useNavigate } from 'react-router';
import { avatarLetter, displayName } from '../../../shared/display-name';
import { ADMIN_ITEM, USER_MENU } from '../../lib/account-navigation';
import { ItemText } from './secondary-bar';
import { Balance } from '../ui/balance';

/** The signed-in user's menu: avatar, name (docs/domain.md §8), Saldo, and the four items. */
export function UserMenu({
  name,
  balance,
  isAdmin = false,
  unreadTickets = 0,
}: {
  name: string | null | undefined;
  balance: string | null | undefined;
  isAdmin?: boolean;
  /** The customer's tickets with unread answers (beside «Soporte»). */
  unreadTickets?: number;
}) {
  const navigate = useNavigate();
  const shown = displayName(name);
  // The header shows the cut name (docs/domain.md §8); a screen reader hears the whole of it.
  const whole = (name ?? '').trim() || shown;
  // Admins also get the back office, before "Cerrar sesión".
  const items = isAdmin
    ? [...USER_MENU.slice(0, -1), ADMIN_ITEM, ...USER_MENU.slice(-1)]
    : USER_MENU;
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className="flex min-h-11 items-center gap-3 rounded-full border border-slate-200 bg-white py-1 pr-3 pl-1 text-left hover:bg-slate-50">
        {/* The accessible name keeps the visible text (name and Saldo), WCAG 2.5.3. */}
        <span className="sr-only">Menú de usuario: </span>
        <span
          aria-hidden="true"
          data-testid="avatar"
          className="flex size-9 items-center justify-center rounded-full bg-brand-600 text-base font-bold text-white"
        >
          {avatarLetter(name)}
        </span>
        <span className="flex flex-col leading-tight">
          <span
            data-testid="user-name"
            aria-hidden={whole === shown ? undefined : true}
            className="text-sm font-semibold text-slate-900"
          >
            {shown}
          </span>
          {whole === shown ? null : <span className="sr-only">{whole}</span>}
          <Balance amount={balance} className="mt-0.5" />
        </span>
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          className="size-4 text-slate-500"
          fill="currentColor"
        >
          <path d="M5.2 7.2a.75.75 0 0 1 1.06 0L10 10.94l3.74-3.74a.75.75 0 1 1 1.06 1.06l-4.27 4.27a.75.75 0 0 1-1.06 0L5.2 8.26a.75.75 0 0 1 0-1.06Z" />
        </svg>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className="z-50 min-w-52 rounded-xl border border-slate-200 bg-white p-1.5 shadow-lg"
        >
          {items.map((item) => (
            <DropdownMenu.Item
              key={item.id}
              onSelect={() => void navigate(item.url)}
              className={`cursor-pointer rounded-lg px-3 py-2.5 text-sm outline-none data-[highlighted]:bg-brand-50 data-[highlighted]:text-brand-900 ${
                item.id === 'cerrar-sesion'
                  ? 'border-t border-slate-100 text-red-700'
                  : 'text-slate-800'
              }`}
            >
              <ItemText id={item.id} title={item.title} unread={unreadTickets} />
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
