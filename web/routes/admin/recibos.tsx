// /admin/recibos «Recibos»: every numbered receipt (R-2026-000123) of a date range, with its PDF,
// and the same list as a CSV for the accountant (GET /api/admin/receipts; admin and finance).
import { useState } from 'react';
import { Form, useLoaderData } from 'react-router';
import { formatUsd, parseAmount } from '../../../shared/money';
import { ReceiptListSchema, type ReceiptDto } from '../../../shared/schemas/payments';
import { Alert } from '../../components/ui/alert';
import { Button, buttonClass } from '../../components/ui/button';
import { Card, PageTitle } from '../../components/ui/card';
import { CsvLink } from '../../components/ui/csv-link';
import { TextField } from '../../components/ui/field';
import { Detail, LoadedList } from '../../components/ui/section';
import { formatCurrencyEs } from '../../lib/topup-quote';
import { api, ApiError } from '../../lib/api';
import { APP_NAME } from '../../lib/app-name';
import { useDates } from '../../lib/dates';
import { settle } from '../../lib/loaded';
import { adminPage } from '../../lib/page-loader.server';
import { staffClientGuard } from '../../lib/staff-guard';
import type { Route } from './+types/recibos';

export function meta() {
  return [{ title: `Recibos · ${APP_NAME}` }];
}

type Filters = { from: string; to: string };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The days from the address; either may be left out (no limit on that side). */
function filtersOf(url: URL): Filters {
  const from = url.searchParams.get('from') ?? '';
  const to = url.searchParams.get('to') ?? '';
  return { from: DAY.test(from) ? from : '', to: DAY.test(to) ? to : '' };
}

function receiptsQuery(f: Filters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  if (f.from) params.set('from', f.from);
  if (f.to) params.set('to', f.to);
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  const text = params.toString();
  return text ? `?${text}` : '';
}

function fetchReceipts(f: Filters, cursor?: string) {
  return api.get(
    `/api/admin/receipts${receiptsQuery(f, cursor ? { cursor } : {})}`,
    ReceiptListSchema,
  );
}

async function receiptsPage(request: Request) {
  const filters = filtersOf(new URL(request.url));
  return { filters, receipts: await settle(fetchReceipts(filters)) };
}

/** Rendered on the server with its data (docs/decisions/0016); admin and finance only. */
export async function loader({ request }: Route.LoaderArgs) {
  return adminPage(request, () => receiptsPage(request), 'money');
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  await staffClientGuard('money');
  return receiptsPage(request);
}

function adminReceiptPdfUrl(id: string): string {
  return `/api/admin/receipts/${encodeURIComponent(id)}/pdf`;
}

export default function AdminRecibos() {
  const { filters, receipts } = useLoaderData<typeof loader>();
  return (
    <>
      <PageTitle
        title="Recibos"
        subtitle="Cada recarga acreditada tiene un recibo numerado, sin saltos dentro del año. Descarga el PDF de cada uno o la lista en CSV."
      />
      <div className="flex min-w-0 flex-col gap-6">
        <Card className="p-4 sm:p-6">
          <Form
            method="get"
            aria-label="Fechas de los recibos"
            className="grid gap-3 sm:grid-cols-[repeat(2,minmax(0,1fr))_auto] sm:items-end"
          >
            <TextField label="Desde" name="from" type="date" defaultValue={filters.from} />
            <TextField label="Hasta" name="to" type="date" defaultValue={filters.to} />
            <Button type="submit">Filtrar</Button>
          </Form>
          <p className="mt-3 text-sm text-slate-600">
            Vacías, todas las fechas. Los días se cuentan en la zona horaria de la tienda.
          </p>
        </Card>
        <LoadedList value={receipts} what="los recibos">
          {(first) => (
            <ReceiptList
              key={receiptsQuery(filters)}
              filters={filters}
              first={first.items}
              firstCursor={first.nextCursor}
            />
          )}
        </LoadedList>
      </div>
    </>
  );
}

function ReceiptList({
  filters,
  first,
  firstCursor,
}: {
  filters: Filters;
  first: ReceiptDto[];
  firstCursor: string | null;
}) {
  const [extra, setExtra] = useState<ReceiptDto[]>([]);
  const [cursor, setCursor] = useState(firstCursor);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const items = [...first, ...extra];

  async function more() {
    if (!cursor) return;
    setLoading(true);
    setError(null);
    try {
      const page = await fetchReceipts(filters, cursor);
      setExtra((e) => [...e, ...page.items]);
      setCursor(page.nextCursor);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'No pudimos cargar más recibos.');
    } finally {
      setLoading(false);
    }
  }

  return (
    <Card className="p-4 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold text-slate-900">
          {items.length === 0 ? 'Sin recibos' : 'Recibos emitidos'}
        </h2>
        <CsvLink
          href={`/api/admin/receipts${receiptsQuery(filters, { format: 'csv' })}`}
          download
          className={buttonClass('secondary')}
        >
          Exportar CSV
        </CsvLink>
      </div>
      {items.length === 0 ? (
        <p className="mt-3 text-slate-600">No hay recibos en estas fechas.</p>
      ) : (
        <ul className="mt-4 flex flex-col gap-3" aria-label="Recibos">
          {items.map((r) => (
            <ReceiptRow key={r.id} receipt={r} />
          ))}
        </ul>
      )}
      {error ? (
        <div className="mt-3">
          <Alert tone="error">{error}</Alert>
        </div>
      ) : null}
      {cursor ? (
        <Button variant="secondary" className="mt-4" onClick={() => void more()} disabled={loading}>
          {loading ? 'Cargando…' : 'Ver más recibos'}
        </Button>
      ) : null}
    </Card>
  );
}

function ReceiptRow({ receipt: r }: { receipt: ReceiptDto }) {
  const dates = useDates();
  const charged =
    r.chargedAmount && r.chargedCurrency
      ? formatCurrencyEs(parseAmount(r.chargedAmount) ?? 0n, r.chargedCurrency)
      : null;
  return (
    <li className="rounded-xl border border-slate-200 p-4" data-testid="receipt-row">
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-4 lg:grid-cols-[minmax(0,1.3fr)_minmax(0,1.3fr)_minmax(0,2fr)_minmax(0,1fr)_repeat(3,minmax(0,0.9fr))]">
        <Detail label="Número">
          <span className="font-semibold tabular-nums">{r.number}</span>
        </Detail>
        <Detail label="Fecha">
          <time dateTime={r.issuedAt}>{dates.dateTime(r.issuedAt)}</time>
        </Detail>
        <Detail label="Cliente" className="col-span-2 sm:col-span-2 lg:col-span-1">
          <span className="block font-medium">{r.customer.name}</span>
          <span className="block break-all text-slate-600">{r.customer.email}</span>
        </Detail>
        <Detail label="Método">{r.methodName}</Detail>
        <Detail label="Importe">
          <span className="tabular-nums">{formatUsd(r.amount)}</span>
        </Detail>
        <Detail label="Comisión">
          <span className="tabular-nums">{formatUsd(r.fee)}</span>
        </Detail>
        <Detail label="Total">
          <span className="font-semibold tabular-nums">{formatUsd(r.total)}</span>
          {charged ? <span className="block text-slate-600 tabular-nums">{charged}</span> : null}
        </Detail>
      </dl>
      <div className="mt-3">
        <a
          href={adminReceiptPdfUrl(r.id)}
          download={`${r.number}.pdf`}
          className={buttonClass('ghost', 'text-brand-700 underline-offset-2 hover:underline')}
        >
          Descargar PDF<span className="sr-only"> del recibo {r.number}</span>
        </a>
      </div>
    </li>
  );
}
