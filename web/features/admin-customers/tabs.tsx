import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useDates } from '../../lib/dates';
import { Link, useFetcher, useNavigate } from 'react-router';
import { formatUsd } from '../../../shared/money';
import type { CustomerNote } from '../../../shared/schemas/admin';
import type { StaffOrderDto } from '../../../shared/schemas/admin';
import {
  PAYMENT_METHOD_LABELS,
  PAYMENT_STATUS_LABELS,
  type MovementDto,
  type PaymentDto,
} from '../../../shared/schemas/wallet';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextAreaField } from '../../components/ui/field';
import { LoadMore, useMorePages } from '../../lib/more-pages';
import { CUSTOMER_TABS, TAB_LABELS, type CustomerTab, type NoteResult } from './data';

/** The tabs as links (`?tab=`), with the arrow keys, Home and End moving between them. */
export function CustomerTabs({
  current,
  tabs = CUSTOMER_TABS,
  children,
}: {
  current: CustomerTab;
  /** The tabs this staff role sees. */
  tabs?: readonly CustomerTab[];
  children: ReactNode;
}) {
  const navigate = useNavigate();
  const list = useRef<HTMLDivElement>(null);

  function onKeyDown(event: KeyboardEvent<HTMLAnchorElement>) {
    const index = tabs.indexOf(current);
    const last = tabs.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    const tab = tabs[next] ?? 'ordenes';
    void Promise.resolve(navigate(`?tab=${tab}`, { preventScrollReset: true, replace: true })).then(
      () => list.current?.querySelector<HTMLElement>(`#tab-${tab}`)?.focus(),
    );
  }

  return (
    <div>
      <div
        ref={list}
        role="tablist"
        aria-label="Datos del cliente"
        className="flex flex-wrap gap-1 border-b border-slate-200"
      >
        {tabs.map((tab) => {
          const selected = tab === current;
          return (
            <Link
              key={tab}
              id={`tab-${tab}`}
              role="tab"
              to={`?tab=${tab}`}
              replace
              preventScrollReset
              aria-selected={selected}
              aria-controls={selected ? `panel-${tab}` : undefined}
              tabIndex={selected ? 0 : -1}
              onKeyDown={onKeyDown}
              className={`-mb-px inline-flex min-h-11 items-center rounded-t-lg border-b-2 px-3 text-sm font-semibold ${
                selected
                  ? 'border-brand-600 text-brand-800'
                  : 'border-transparent text-slate-700 hover:bg-slate-100'
              }`}
            >
              {TAB_LABELS[tab]}
            </Link>
          );
        })}
      </div>
      <div
        role="tabpanel"
        id={`panel-${current}`}
        aria-labelledby={`tab-${current}`}
        tabIndex={0}
        className="pt-4 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
      >
        {children}
      </div>
    </div>
  );
}

/** A keyset list: the loader's first page plus what «Cargar más» appends. */
const CELL = 'px-2 py-2 align-top';

export function OrdersTab({
  first,
  next,
}: {
  first: { items: StaffOrderDto[]; nextCursor: string | null };
  next: (cursor: string) => Promise<{ items: StaffOrderDto[]; nextCursor: string | null }>;
}) {
  const { dateTime: formatDateTime } = useDates();
  const pages = useMorePages(first, next);
  const items = pages.items;
  if (items.length === 0) return <p className="text-slate-600">Todavía no hizo ninguna orden.</p>;
  return (
    <div>
      <table className="w-full table-fixed text-left text-sm" data-testid="customer-orders">
        <caption className="sr-only">Sus órdenes, de la más reciente a la más antigua</caption>
        <thead className="border-b border-slate-200 text-slate-700">
          <tr>
            <th scope="col" className={`${CELL} w-20`}>
              N.º
            </th>
            <th scope="col" className={CELL}>
              Servicio
            </th>
            <th scope="col" className={`${CELL} hidden sm:table-cell`}>
              Fecha
            </th>
            <th scope="col" className={`${CELL} text-right`}>
              Importe
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {items.map((o) => (
            <tr key={o.id}>
              <td className={`${CELL} tabular-nums`}>{o.number}</td>
              <td className={`${CELL} break-words`}>
                {o.serviceName}
                <span className="block text-xs text-slate-600">{o.statusLabel}</span>
              </td>
              <td className={`${CELL} hidden sm:table-cell`}>{formatDateTime(o.createdAt)}</td>
              <td className={`${CELL} text-right tabular-nums`}>
                {o.price === null ? '—' : formatUsd(o.price)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <LoadMore pages={pages} />
    </div>
  );
}

export function LedgerTab({
  first,
  next,
}: {
  first: { items: MovementDto[]; nextCursor: string | null };
  next: (cursor: string) => Promise<{ items: MovementDto[]; nextCursor: string | null }>;
}) {
  const { dateTime: formatDateTime } = useDates();
  const pages = useMorePages(first, next);
  const items = pages.items;
  if (items.length === 0) return <p className="text-slate-600">Su saldo no tiene movimientos.</p>;
  return (
    <div>
      <table className="w-full table-fixed text-left text-sm" data-testid="customer-ledger">
        <caption className="sr-only">
          Movimientos de su saldo, del más reciente al más antiguo, con el saldo después de cada uno
        </caption>
        <thead className="border-b border-slate-200 text-slate-700">
          <tr>
            <th scope="col" className={`${CELL} hidden sm:table-cell`}>
              Fecha
            </th>
            <th scope="col" className={CELL}>
              Concepto
            </th>
            <th scope="col" className={`${CELL} text-right`}>
              Importe
            </th>
            <th scope="col" className={`${CELL} text-right`}>
              Saldo
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {items.map((m) => (
            <tr key={m.id}>
              <td className={`${CELL} hidden sm:table-cell`}>{formatDateTime(m.date)}</td>
              <td className={`${CELL} break-words`}>{m.description}</td>
              <td
                className={`${CELL} text-right tabular-nums ${m.amount.startsWith('-') ? 'text-red-800' : 'text-emerald-800'}`}
              >
                {m.amount.startsWith('-') ? '−' : '+'}
                {formatUsd(m.amount.slice(1))}
              </td>
              <td className={`${CELL} text-right tabular-nums`}>{formatUsd(m.balanceAfter)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <LoadMore pages={pages} />
    </div>
  );
}

export function PaymentsTab({ items }: { items: PaymentDto[] }) {
  const { dateTime: formatDateTime } = useDates();
  if (items.length === 0) return <p className="text-slate-600">Todavía no hizo ninguna recarga.</p>;
  return (
    <ul className="divide-y divide-slate-200" data-testid="customer-payments">
      {items.map((p) => (
        <li key={p.id} className="flex flex-wrap items-baseline justify-between gap-2 py-2 text-sm">
          <span className="min-w-0 break-words">
            {p.methodName || PAYMENT_METHOD_LABELS[p.method]}
            <span className="block text-xs text-slate-600">
              {formatDateTime(p.createdAt)}
              {p.reference ? ` · Ref. ${p.reference}` : ''}
              {p.rejectReason ? ` · ${p.rejectReason}` : ''}
            </span>
          </span>
          <span className="text-right">
            <strong className="tabular-nums">{formatUsd(p.amount)}</strong>
            <span className="block text-xs text-slate-700">{PAYMENT_STATUS_LABELS[p.status]}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The notes; `canWrite` false (support: customers are read-only) shows them without the form. */
export function NotesTab({ notes, canWrite }: { notes: CustomerNote[]; canWrite: boolean }) {
  const { dateTime: formatDateTime } = useDates();
  const fetcher = useFetcher<NoteResult>();
  const busy = fetcher.state !== 'idle';
  const result = fetcher.state === 'idle' ? fetcher.data : undefined;
  const [saved, setSaved] = useState(0);
  const [seen, setSeen] = useState(result);
  if (result !== seen) {
    setSeen(result);
    if (result?.ok) setSaved((n) => n + 1);
  }
  return (
    <div className="flex flex-col gap-4">
      {canWrite ? (
        <fetcher.Form key={saved} method="post" noValidate className="flex flex-col gap-3">
          <input type="hidden" name="intent" value="note" />
          <TextAreaField
            label="Nueva nota"
            name="body"
            rows={3}
            maxLength={2000}
            required
            hint="Solo la ven los administradores."
            error={result && !result.ok ? result.error : undefined}
          />
          <Button type="submit" disabled={busy} className="sm:self-start">
            {busy ? 'Guardando…' : 'Guardar nota'}
          </Button>
        </fetcher.Form>
      ) : null}
      <div aria-live="polite">
        {result?.ok ? <Alert tone="success">{result.message}</Alert> : null}
      </div>
      {notes.length === 0 ? (
        <p className="text-slate-600">Todavía no hay notas sobre este cliente.</p>
      ) : (
        <ul className="divide-y divide-slate-200" data-testid="customer-notes">
          {notes.map((n) => (
            <li key={n.id} className="py-2 text-sm">
              <p className="break-words whitespace-pre-line text-slate-900">{n.body}</p>
              <p className="mt-1 text-xs text-slate-600">
                {n.authorName ?? 'Administrador eliminado'} · {formatDateTime(n.createdAt)}
              </p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
