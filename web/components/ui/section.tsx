import type { ReactNode } from 'react';
import type { Loaded } from '../../lib/loaded';
import { Alert } from './alert';
import { Card } from './card';
import { formatDay } from '../../../shared/dates';

/** One part of the page: a card with its h2 (labelled region, so it shows in landmark lists). */
export function Section({
  id,
  title,
  description,
  children,
}: {
  id: string;
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id}>
      <Card className="p-4 sm:p-6">
        <h2 id={id} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {description ? <p className="mt-1 text-sm text-slate-600">{description}</p> : null}
        <div className="mt-4">{children}</div>
      </Card>
    </section>
  );
}

/** Renders the list once it loaded, or why it could not be loaded. */
export function LoadedList<T>({
  value,
  what,
  children,
}: {
  value: Loaded<T>;
  what: string;
  children: (data: T) => ReactNode;
}) {
  if (!value.ok)
    return (
      <Alert tone="error">
        No pudimos cargar {what}. {value.error}
      </Alert>
    );
  return <>{children(value.data)}</>;
}

/** A label/value pair inside a <dl>. */
export function Detail({
  label,
  children,
  className = '',
}: {
  label: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={`min-w-0 ${className}`}>
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-0.5 text-sm text-slate-900">{children}</dd>
    </div>
  );
}

/** Expiry dates are stored as the end of that day in UTC: show that day, whatever the zone. */
export function formatExpiry(iso: string | null): string {
  if (!iso) return 'Sin caducidad';
  return formatDay(iso.slice(0, 10));
}

/** True while the fetcher is busy with a form of this intent. */
export function isBusy(
  fetcher: { state: string; formData?: FormData | undefined },
  intent?: string,
): boolean {
  if (fetcher.state === 'idle') return false;
  return intent === undefined || fetcher.formData?.get('intent') === intent;
}
