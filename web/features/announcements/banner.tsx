import { useEffect, useRef, useState } from 'react';
import { useRevalidator } from 'react-router';
import type { AnnouncementDto } from '../../../shared/schemas/announcements';
import { markAnnouncementRead } from './announcements-api';
import { FormattedText } from './formatted-text';
import { newestUnread } from './unread';

/**
 * The newest unread announcement above every page of the customer's app, until they close it
 * («Cerrar anuncio» marks it read). A labelled region, not an alert: it is read when reached,
 * never announced over what the person is doing.
 */
export function AnnouncementBanner({ items }: { items: readonly AnnouncementDto[] }) {
  const [closed, setClosed] = useState<ReadonlySet<string>>(() => new Set());
  const revalidator = useRevalidator();
  const region = useRef<HTMLElement>(null);
  const moveFocus = useRef(false);
  const current = newestUnread(items.filter((a) => !closed.has(a.id)));
  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    // Closed with the keyboard: to the next announcement, or to the page's title.
    const next = region.current ?? document.querySelector<HTMLElement>('#contenido h1');
    if (!next) return;
    if (!next.hasAttribute('tabindex')) next.setAttribute('tabindex', '-1');
    next.focus();
  }, [current?.id]);
  if (!current) return null;

  function close(id: string) {
    moveFocus.current = true;
    setClosed((s) => new Set([...s, id]));
    markAnnouncementRead(id)
      .then(() => revalidator.revalidate())
      .catch((err: unknown) => console.warn('No se pudo marcar el anuncio como leído:', err));
  }

  const headingId = `anuncio-${current.id}`;
  return (
    <section
      ref={region}
      tabIndex={-1}
      aria-labelledby={headingId}
      data-testid="announcement-banner"
      className="mb-5 flex items-start gap-3 rounded-2xl border border-brand-100 bg-brand-50 p-4 text-brand-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
    >
      <div className="min-w-0 flex-1">
        <p className="text-xs font-semibold tracking-wide text-brand-800 uppercase">Anuncio</p>
        <h2 id={headingId} className="mt-0.5 font-semibold break-words text-slate-900">
          {current.title}
        </h2>
        <FormattedText source={current.body} className="mt-1 text-sm text-slate-800" />
      </div>
      <button
        type="button"
        onClick={() => close(current.id)}
        aria-label="Cerrar anuncio"
        className="inline-flex size-11 shrink-0 items-center justify-center rounded-lg text-slate-700 hover:bg-brand-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5" fill="currentColor">
          <path d="M5.28 4.22a.75.75 0 0 0-1.06 1.06L8.94 10l-4.72 4.72a.75.75 0 1 0 1.06 1.06L10 11.06l4.72 4.72a.75.75 0 1 0 1.06-1.06L11.06 10l4.72-4.72a.75.75 0 0 0-1.06-1.06L10 8.94 5.28 4.22Z" />
        </svg>
      </button>
    </section>
  );
}
