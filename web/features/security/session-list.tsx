import { useId } from 'react';
import { useFetcher } from 'react-router';
import { Button } from '../../components/ui/button';
import { Detail } from '../../components/ui/section';
import { JSON_POST } from './hooks';
import { relativeTime } from './time';
import { useHydrated } from '../../lib/hydrated';
import {
  FETCHER_KEYS,
  type SecurityActionResult,
  type SecurityPayload,
  type Session,
} from './types';
import { useDates } from '../../lib/dates';

/**
 * The signed-in devices, the current one first. With `revocable`, every other one has «Cerrar
 * sesión» (Mi perfil); without it the list only shows them (the admin's customer view).
 */
export function SessionList({
  sessions,
  revocable = false,
  testId = 'sessions',
}: {
  sessions: Session[];
  revocable?: boolean;
  testId?: string;
}) {
  if (sessions.length === 0)
    return <p className="text-sm text-slate-700">No hay ninguna sesión abierta.</p>;
  const ordered = [...sessions].sort(
    (a, b) => Number(b.current) - Number(a.current) || b.lastUsedAt.localeCompare(a.lastUsedAt),
  );
  return (
    <ul
      className="divide-y divide-slate-200 rounded-xl border border-slate-200"
      data-testid={testId}
    >
      {ordered.map((session) => (
        <SessionRow key={session.id} session={session} revocable={revocable} />
      ))}
    </ul>
  );
}

function When({ iso }: { iso: string }) {
  const dates = useDates();
  // "hace 5 minutos" depends on the device's clock: written once the page has hydrated.
  const hydrated = useHydrated();
  return (
    <>
      {hydrated ? `${relativeTime(iso)} ` : null}
      <time dateTime={iso} className="text-slate-600">
        ({dates.dateTime(iso)})
      </time>
    </>
  );
}

function SessionRow({ session, revocable }: { session: Session; revocable: boolean }) {
  const nameId = useId();
  return (
    <li aria-labelledby={nameId} className="flex min-w-0 flex-col gap-3 p-3 sm:p-4">
      <div className="flex flex-wrap items-center gap-2">
        <h4 id={nameId} className="min-w-0 font-semibold break-words text-slate-900">
          {session.device} · {session.browser}
        </h4>
        {session.current ? (
          <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900">
            Este dispositivo
          </span>
        ) : null}
      </div>
      <dl className="grid gap-3 sm:grid-cols-3">
        <Detail label="Lugar aproximado">
          <span className="break-words">
            {session.place}
            {session.ip ? ` · IP ${session.ip}` : ''}
          </span>
        </Detail>
        <Detail label="Inicio">
          <When iso={session.createdAt} />
        </Detail>
        <Detail label="Último uso">
          <When iso={session.lastUsedAt} />
        </Detail>
      </dl>
      {revocable && !session.current ? <RevokeButton session={session} /> : null}
    </li>
  );
}

function RevokeButton({ session }: { session: Session }) {
  const fetcher = useFetcher<SecurityActionResult>({ key: FETCHER_KEYS.session });
  const pending = fetcher.state !== 'idle' ? (fetcher.json as SecurityPayload | undefined) : null;
  const busy = pending?.intent === 'session-revoke' && pending.id === session.id;

  function revoke() {
    if (fetcher.state !== 'idle') return;
    const payload: SecurityPayload = { intent: 'session-revoke', id: session.id };
    void fetcher.submit(payload, JSON_POST);
  }

  return (
    <div>
      <Button variant="secondary" disabled={busy} onClick={revoke}>
        {busy ? 'Cerrando…' : 'Cerrar sesión'}
        <span className="sr-only">
          {' '}
          en {session.device} · {session.browser}
        </span>
      </Button>
    </div>
  );
}
