import type { TicketMessageDto } from '../../../shared/schemas/tickets';
import { useDates } from '../../lib/dates';
import { fileSize } from './attachments';

const AUTHOR_TONES: Record<TicketMessageDto['authorKind'], string> = {
  customer: 'border-slate-200 bg-white',
  staff: 'border-brand-100 bg-brand-50',
  system: 'border-slate-200 bg-slate-50',
};

/**
 * A ticket's messages, oldest first. `viewer` decides whose messages read as «Tú»; internal notes
 * (only in the staff's view) are drawn apart: amber, dashed, headed «Nota interna».
 */
export function Conversation({
  messages,
  viewer,
}: {
  messages: TicketMessageDto[];
  viewer: 'customer' | 'staff';
}) {
  const dates = useDates();
  return (
    <ol className="flex flex-col gap-3" aria-label="Mensajes">
      {messages.map((m) => {
        const mine = m.authorKind === viewer;
        const tone = m.internal
          ? 'border-dashed border-amber-400 bg-amber-50'
          : AUTHOR_TONES[m.authorKind];
        return (
          <li
            key={m.id}
            data-testid={m.internal ? 'ticket-note' : 'ticket-message'}
            className={`min-w-0 rounded-xl border p-3 sm:p-4 ${tone} ${mine ? 'sm:ml-10' : 'sm:mr-10'}`}
          >
            <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
              {m.internal ? (
                <span className="rounded bg-amber-200 px-1.5 text-xs font-semibold text-amber-950 uppercase">
                  Nota interna
                </span>
              ) : null}
              <span className="font-semibold break-words text-slate-900">
                {m.authorKind === 'system'
                  ? 'Sistema'
                  : mine && viewer === 'customer'
                    ? 'Tú'
                    : m.authorName}
              </span>
              <span className="text-slate-600">{dates.dateTime(m.createdAt)}</span>
            </p>
            <p className="mt-1.5 text-sm break-words whitespace-pre-wrap text-slate-800">
              {m.body}
            </p>
            {m.attachments.length > 0 ? (
              <ul className="mt-2 flex flex-col gap-1" aria-label="Archivos adjuntos">
                {m.attachments.map((a) => (
                  <li key={a.id} className="min-w-0 text-sm">
                    <a
                      href={a.url}
                      download={a.name}
                      className="text-brand-700 hover:text-brand-800 inline-flex max-w-full items-center gap-1 font-medium underline"
                    >
                      <span className="sr-only">Descargar </span>
                      <span className="truncate">{a.name}</span>
                      <span className="shrink-0 text-slate-600 no-underline">
                        ({fileSize(a.size)})
                      </span>
                    </a>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
