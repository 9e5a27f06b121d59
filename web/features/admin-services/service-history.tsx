import { Suspense, use } from 'react';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import type { Loaded } from '../../lib/loaded';
import { describeEntry } from './history';
import type { ServiceHistoryEntry } from './types';
import { useDates } from '../../lib/dates';

/** The server answers at most this many entries (HISTORY_LIMIT in catalogue.service.ts). */
const SHOWN_AT_MOST = 50;

export type HistoryRequest = Promise<Loaded<ServiceHistoryEntry[]>>;

/** "Historial de cambios" of one service, read from the audit log when the admin opens it. */
export function ServiceHistory({
  request,
  serviceName,
  onReload,
}: {
  request: HistoryRequest;
  serviceName: string;
  onReload: () => void;
}) {
  return (
    <section
      aria-label={`Historial de cambios de ${serviceName}`}
      className="rounded-xl border border-slate-200 p-3 sm:p-4"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 className="text-sm font-semibold text-slate-900">Historial de cambios</h4>
        <Button variant="ghost" onClick={onReload}>
          Actualizar<span className="sr-only"> el historial de {serviceName}</span>
        </Button>
      </div>
      <Suspense
        fallback={
          <p role="status" className="text-sm text-slate-600">
            Cargando el historial…
          </p>
        }
      >
        <HistoryList request={request} />
      </Suspense>
    </section>
  );
}

function HistoryList({ request }: { request: HistoryRequest }) {
  const dates = useDates();
  const loaded = use(request);
  if (!loaded.ok) return <Alert tone="error">No pudimos cargar el historial. {loaded.error}</Alert>;
  if (loaded.data.length === 0)
    return <p className="text-sm text-slate-600">Sin cambios registrados.</p>;
  return (
    <>
      <ol className="mt-2 divide-y divide-slate-100" data-testid="service-history">
        {loaded.data.map((entry) => {
          const { title, lines } = describeEntry(entry);
          return (
            <li key={entry.id} className="py-2 text-sm">
              <p className="font-medium text-slate-900">{title}</p>
              <p className="text-slate-600">
                <time dateTime={entry.createdAt}>{dates.dateTime(entry.createdAt)}</time>
                {' · '}
                {entry.actor ? `${entry.actor.name} (${entry.actor.email})` : 'Cuenta eliminada'}
              </p>
              {lines.length > 0 ? (
                <ul className="mt-1 list-disc pl-5 break-words text-slate-700">
                  {lines.map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              ) : null}
            </li>
          );
        })}
      </ol>
      {loaded.data.length >= SHOWN_AT_MOST ? (
        <p className="mt-2 text-sm text-slate-600">
          Se muestran los {SHOWN_AT_MOST} cambios más recientes.
        </p>
      ) : null}
    </>
  );
}
