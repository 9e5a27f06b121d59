import { APP_NAME } from '../../lib/app-name';

/** The loading screen: 'Cargando <name>' and 'Un momento, por favor' (docs/domain.md §8). */
export function LoadingScreen({ note }: { note?: string }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className="flex min-h-[60vh] flex-col items-center justify-center gap-4 px-4 text-center"
    >
      <span
        aria-hidden="true"
        className="size-12 animate-spin rounded-full border-4 border-brand-100 border-t-brand-600 motion-reduce:animate-none"
      />
      <p className="text-lg font-semibold text-slate-900">Cargando {APP_NAME}</p>
      <p className="text-slate-600">Un momento, por favor</p>
      {note ? <p className="text-sm text-amber-700">{note}</p> : null}
    </div>
  );
}
