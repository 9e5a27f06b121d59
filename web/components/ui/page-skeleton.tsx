import { useEffect, useState } from 'react';
import { useLocation, useNavigation } from 'react-router';

/**
 * True while the app moves to another page and that takes longer than `afterMs` (a prefetched
 * page arrives before: nothing flashes). Always false on the server and on the first render.
 */
export function useSlowPageChange(afterMs = 250): boolean {
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const target =
    navigation.state === 'loading' && navigation.location.pathname !== pathname
      ? navigation.location.key
      : null;
  // The navigation that has been loading for longer than `afterMs`.
  const [slowKey, setSlowKey] = useState<string | null>(null);
  useEffect(() => {
    if (target === null) return;
    const timer = setTimeout(() => setSlowKey(target), afterMs);
    return () => clearTimeout(timer);
  }, [target, afterMs]);
  return target !== null && slowKey === target;
}

/** The frame of a signed-in page while the next one loads: a title and two cards, in grey. */
export function PageSkeleton() {
  const bar = 'animate-pulse rounded bg-slate-200 motion-reduce:animate-none';
  return (
    <div role="status" aria-live="polite" data-testid="page-skeleton">
      <span className="sr-only">Cargando la página…</span>
      <div aria-hidden="true">
        <div className={`h-8 w-56 ${bar}`} />
        <div className={`mt-3 h-4 w-72 max-w-full ${bar}`} />
        <div className="mt-6 grid gap-4 sm:grid-cols-2">
          {[0, 1].map((i) => (
            <div key={i} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
              <div className={`h-4 w-32 ${bar}`} />
              <div className={`mt-4 h-8 w-40 ${bar}`} />
              <div className={`mt-4 h-4 w-full ${bar}`} />
              <div className={`mt-2 h-4 w-2/3 ${bar}`} />
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
