import type { AnnouncementDto } from '../../../shared/schemas/announcements';
import { Card } from '../../components/ui/card';
import { useDates } from '../../lib/dates';
import { FormattedText } from './formatted-text';

/** The dashboard's «Anuncios»: what the customer should see now, pinned first (as the API orders them). */
export function AnnouncementList({ items }: { items: readonly AnnouncementDto[] }) {
  const { date } = useDates();
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="anuncios" className="mt-6">
      <Card>
        <h2 id="anuncios" className="text-lg font-semibold text-slate-900">
          Anuncios
        </h2>
        <ul className="mt-3 divide-y divide-slate-100" data-testid="dashboard-announcements">
          {items.map((a) => (
            <li key={a.id} className="py-3">
              <div className="flex flex-wrap items-center gap-2">
                <h3 className="font-semibold break-words text-slate-900">{a.title}</h3>
                {a.pinned ? (
                  <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
                    Fijado
                  </span>
                ) : null}
                <span className="text-xs text-slate-600">{date(a.startsAt)}</span>
              </div>
              <FormattedText source={a.body} className="mt-1 text-sm text-slate-800" />
            </li>
          ))}
        </ul>
      </Card>
    </section>
  );
}
