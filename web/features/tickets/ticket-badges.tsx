import { TICKET_STATE_LABELS, type TicketState } from '../../../shared/schemas/tickets';

const TONES: Record<TicketState, string> = {
  open: 'bg-amber-100 text-amber-900',
  answered: 'bg-emerald-100 text-emerald-800',
  waiting_customer: 'bg-blue-100 text-blue-900',
  closed: 'bg-slate-200 text-slate-800',
};

/** A ticket's state as a coloured pill; `wrap`: may take two lines (a narrow table column). */
export function TicketStateBadge({ state, wrap = false }: { state: TicketState; wrap?: boolean }) {
  return (
    <span
      className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold ${wrap ? 'rounded-lg' : 'whitespace-nowrap'} ${TONES[state]}`}
      data-testid="ticket-state"
    >
      {TICKET_STATE_LABELS[state]}
    </span>
  );
}

/** «2 sin leer» beside a ticket with messages the reader has not seen (nothing otherwise). */
export function UnreadMark({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span
      className="bg-brand-600 inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-white"
      data-testid="ticket-unread"
    >
      {count} sin leer
    </span>
  );
}
