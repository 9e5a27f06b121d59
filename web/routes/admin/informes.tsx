// /admin/informes «Informes»: revenue, cost, margin, orders and refunds of a date range, by
// period (a chart drawn here in SVG, no chart library) and broken down, with top customers and
// top-ups by method; the same figures as GET /api/admin/reports (admin and finance).
import { Form, useLoaderData } from 'react-router';
import { formatUsd, parseAmount } from '../../../shared/money';
import {
  REPORT_BREAKDOWN_LABELS,
  REPORT_BREAKDOWNS,
  REPORT_PERIOD_LABELS,
  REPORT_PERIODS,
  ReportSchema,
  type Report,
  type ReportBreakdown,
  type ReportFigures,
  type ReportPeriod,
  type ReportPoint,
} from '../../../shared/schemas/reports';
import { Button } from '../../components/ui/button';
import { Card, PageTitle } from '../../components/ui/card';
import { SelectField, TextField } from '../../components/ui/field';
import { LoadedList, Section } from '../../components/ui/section';
import { api } from '../../lib/api';
import { APP_NAME } from '../../lib/app-name';
import { settle } from '../../lib/loaded';
import { adminPage } from '../../lib/page-loader.server';
import { staffClientGuard } from '../../lib/staff-guard';
import type { Route } from './+types/informes';

export function meta() {
  return [{ title: `Informes · ${APP_NAME}` }];
}

type Filters = { from: string; to: string; period: ReportPeriod; by: ReportBreakdown };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function isoDay(offset: number): string {
  return new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
}

/** The filters from the address; by default the last 30 days (UTC), by day and category. */
function filtersOf(url: URL): Filters {
  const p = url.searchParams;
  const from = p.get('from') ?? '';
  const to = p.get('to') ?? '';
  const period = p.get('period') ?? '';
  const by = p.get('by') ?? '';
  return {
    from: DAY.test(from) ? from : isoDay(-29),
    to: DAY.test(to) ? to : isoDay(0),
    period: (REPORT_PERIODS as readonly string[]).includes(period)
      ? (period as ReportPeriod)
      : 'day',
    by: (REPORT_BREAKDOWNS as readonly string[]).includes(by)
      ? (by as ReportBreakdown)
      : 'category',
  };
}

function reportQuery(f: Filters): string {
  return new URLSearchParams({ from: f.from, to: f.to, period: f.period, by: f.by }).toString();
}

async function reportPage(request: Request) {
  const filters = filtersOf(new URL(request.url));
  const report = await settle(api.get(`/api/admin/reports?${reportQuery(filters)}`, ReportSchema));
  return { filters, report };
}

/** Rendered on the server with its data (docs/decisions/0016); admin and finance only. */
export async function loader({ request }: Route.LoaderArgs) {
  return adminPage(request, () => reportPage(request), 'reports');
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  await staffClientGuard('reports');
  return reportPage(request);
}

const cents = (money: string): bigint => parseAmount(money) ?? 0n;

export default function AdminInformes() {
  const { filters, report } = useLoaderData<typeof loader>();
  return (
    <>
      <PageTitle
        title="Informes"
        subtitle="Ingresos, costos y márgenes de las órdenes liquidadas en un rango de fechas (UTC), por periodo y desglosados."
      />
      <div className="flex min-w-0 flex-col gap-6 [&>*]:min-w-0">
        <Card className="p-4 sm:p-6">
          <Form
            method="get"
            aria-label="Rango del informe"
            className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto] lg:items-end"
          >
            <TextField label="Desde" name="from" type="date" required defaultValue={filters.from} />
            <TextField label="Hasta" name="to" type="date" required defaultValue={filters.to} />
            <SelectField
              label="Periodo"
              name="period"
              defaultValue={filters.period}
              options={REPORT_PERIODS.map((p) => ({ value: p, label: REPORT_PERIOD_LABELS[p] }))}
            />
            <SelectField
              label="Desglose"
              name="by"
              defaultValue={filters.by}
              options={REPORT_BREAKDOWNS.map((b) => ({
                value: b,
                label: REPORT_BREAKDOWN_LABELS[b],
              }))}
            />
            <Button type="submit">Ver informe</Button>
          </Form>
        </Card>
        <LoadedList value={report} what="el informe">
          {(data) => <ReportView report={data} filters={filters} />}
        </LoadedList>
      </div>
    </>
  );
}

function ReportView({ report, filters }: { report: Report; filters: Filters }) {
  const csv = `/api/admin/reports?${reportQuery(filters)}&format=excel`;
  return (
    <>
      <Totals totals={report.totals} />
      <Section
        id="informe-serie"
        title={`Por ${REPORT_PERIOD_LABELS[report.period].toLowerCase()}`}
        description="Ingresos y costo de cada periodo; la línea es el margen."
      >
        <Chart series={report.series} monthly={report.period === 'month'} />
      </Section>
      <Section
        id="informe-desglose"
        title={`Por ${REPORT_BREAKDOWN_LABELS[report.by].toLowerCase()}`}
      >
        <div className="mb-3">
          <a
            href={csv}
            download
            className="text-brand-700 hover:text-brand-800 text-sm font-medium underline"
          >
            Descargar CSV
          </a>
        </div>
        <FiguresTable
          caption={`Desglose por ${REPORT_BREAKDOWN_LABELS[report.by].toLowerCase()}`}
          head={REPORT_BREAKDOWN_LABELS[report.by]}
          rows={report.rows.map((r) => ({ key: r.key, label: r.label, figures: r }))}
          totals={report.totals}
        />
      </Section>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2 [&>*]:min-w-0">
        <Section id="informe-clientes" title="Mejores clientes">
          <FiguresTable
            caption="Los diez clientes con más ingresos"
            head="Cliente"
            rows={report.topCustomers.map((r) => ({ key: r.key, label: r.label, figures: r }))}
            short
          />
        </Section>
        <Section id="informe-recargas" title="Recargas por método">
          <table className="w-full text-sm">
            <caption className="sr-only">Recargas del rango por método</caption>
            <thead>
              <tr className="border-b border-slate-200 text-left text-slate-600">
                <th scope="col" className="py-2 font-medium">
                  Método
                </th>
                <th scope="col" className="py-2 text-right font-medium">
                  Recargas
                </th>
                <th scope="col" className="py-2 text-right font-medium">
                  Importe
                </th>
              </tr>
            </thead>
            <tbody>
              {report.topups.map((t) => (
                <tr key={t.method} className="border-b border-slate-100">
                  <th scope="row" className="py-2 text-left font-normal">
                    {t.label}
                  </th>
                  <td className="py-2 text-right tabular-nums">{t.count}</td>
                  <td className="py-2 text-right tabular-nums">{formatUsd(t.amount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Section>
      </div>
    </>
  );
}

const CARDS: { key: keyof ReportFigures; label: string }[] = [
  { key: 'revenue', label: 'Ingresos' },
  { key: 'cost', label: 'Costo' },
  { key: 'margin', label: 'Margen' },
  { key: 'orders', label: 'Órdenes' },
  { key: 'refunds', label: 'Reembolsos' },
];

function Totals({ totals }: { totals: ReportFigures }) {
  return (
    <section aria-labelledby="informe-totales">
      <h2 id="informe-totales" className="sr-only">
        Totales
      </h2>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
        {CARDS.map((c) => (
          <Card key={c.key} className="p-4">
            <dt className="text-sm text-slate-600">{c.label}</dt>
            <dd
              className="mt-1 text-xl font-semibold text-slate-900 tabular-nums"
              data-testid={`total-${c.key}`}
            >
              {c.key === 'orders' ? totals.orders : formatUsd(totals[c.key])}
            </dd>
          </Card>
        ))}
      </dl>
    </section>
  );
}

function FiguresTable({
  caption,
  head,
  rows,
  totals,
  short = false,
}: {
  caption: string;
  head: string;
  rows: { key: string; label: string; figures: ReportFigures }[];
  totals?: ReportFigures;
  short?: boolean;
}) {
  if (rows.length === 0)
    return <p className="text-sm text-slate-600">No hay órdenes en el rango.</p>;
  const cell = 'py-2 pl-3 text-right tabular-nums';
  const hide = short ? 'hidden sm:table-cell' : 'hidden md:table-cell';
  const line = (label: string, f: ReportFigures, key: string, strong = false) => (
    <tr key={key} className={`border-b border-slate-100 ${strong ? 'font-semibold' : ''}`}>
      <th
        scope="row"
        title={label}
        className={`truncate py-2 text-left ${strong ? '' : 'font-normal'}`}
      >
        {label}
      </th>
      <td className={cell}>{formatUsd(f.revenue)}</td>
      <td className={`${cell} ${hide}`}>{formatUsd(f.cost)}</td>
      <td className={cell}>{formatUsd(f.margin)}</td>
      <td className={`${cell} ${short ? 'hidden' : 'hidden sm:table-cell'}`}>{f.orders}</td>
      <td className={`${cell} ${short ? 'hidden' : 'hidden lg:table-cell'}`}>
        {formatUsd(f.refunds)}
      </td>
    </tr>
  );
  return (
    <div>
      {/* Fixed columns: long names are cut (their whole text in `title`), never scrolled. */}
      <table className="w-full table-fixed text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-200 text-left text-slate-600">
            <th scope="col" className="py-2 font-medium">
              {head}
            </th>
            <th scope="col" className="w-28 py-2 pl-3 text-right font-medium">
              Ingresos
            </th>
            <th scope="col" className={`w-28 py-2 pl-3 text-right font-medium ${hide}`}>
              Costo
            </th>
            <th scope="col" className="w-28 py-2 pl-3 text-right font-medium">
              Margen
            </th>
            <th
              scope="col"
              className={`w-20 py-2 pl-3 text-right font-medium ${short ? 'hidden' : 'hidden sm:table-cell'}`}
            >
              Órdenes
            </th>
            <th
              scope="col"
              className={`w-28 py-2 pl-3 text-right font-medium ${short ? 'hidden' : 'hidden lg:table-cell'}`}
            >
              Reembolsos
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => line(r.label, r.figures, r.key))}
          {totals ? line('Total', totals, 'total', true) : null}
        </tbody>
      </table>
    </div>
  );
}

/** «01/05» (day, week) or «may 2026» (month) for a period's first day. */
function periodLabel(period: string, monthly: boolean): string {
  const [y, m, d] = period.split('-');
  if (!monthly) return `${d}/${m}`;
  const months = [
    'ene',
    'feb',
    'mar',
    'abr',
    'may',
    'jun',
    'jul',
    'ago',
    'sep',
    'oct',
    'nov',
    'dic',
  ];
  return `${months[Number(m) - 1] ?? m} ${y}`;
}

const W = 720;
const H = 240;
const PAD = { top: 12, right: 8, bottom: 28, left: 8 };

/** Revenue and cost bars per period and the margin as a line, drawn in plain SVG. */
function Chart({ series, monthly }: { series: ReportPoint[]; monthly: boolean }) {
  if (series.length === 0) return null;
  const values = series.flatMap((p) => [cents(p.revenue), cents(p.cost), cents(p.margin)]);
  const max = values.reduce((a, b) => (b > a ? b : a), 1n);
  const min = values.reduce((a, b) => (b < a ? b : a), 0n);
  const span = Number(max - min) || 1;
  const plotH = H - PAD.top - PAD.bottom;
  const y = (v: bigint) => PAD.top + (Number(max - v) / span) * plotH;
  const slot = (W - PAD.left - PAD.right) / series.length;
  const bar = Math.max(1, Math.min(18, slot * 0.35));
  const zero = y(0n);
  const every = Math.max(1, Math.ceil(series.length / 8));
  const margin = series
    .map((p, i) => `${(PAD.left + slot * (i + 0.5)).toFixed(1)},${y(cents(p.margin)).toFixed(1)}`)
    .join(' ');
  const total = (k: 'revenue' | 'cost' | 'margin') =>
    formatUsd(series.reduce((s, p) => s + cents(p[k]), 0n));
  return (
    <figure>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        className="h-auto w-full"
        role="img"
        aria-labelledby="informe-grafico-titulo"
      >
        <title id="informe-grafico-titulo">
          {`Ingresos, costo y margen en ${series.length} periodos: ingresos ${total('revenue')}, costo ${total('cost')}, margen ${total('margin')}.`}
        </title>
        <line x1={PAD.left} x2={W - PAD.right} y1={zero} y2={zero} stroke="#94a3b8" />
        {series.map((p, i) => {
          const x = PAD.left + slot * (i + 0.5);
          const rev = y(cents(p.revenue));
          const cost = y(cents(p.cost));
          return (
            <g key={p.period}>
              <rect
                x={x - bar}
                y={rev}
                width={bar}
                height={Math.max(0, zero - rev)}
                fill="#2563eb"
              />
              <rect x={x} y={cost} width={bar} height={Math.max(0, zero - cost)} fill="#f59e0b" />
              {i % every === 0 ? (
                <text x={x} y={H - 8} textAnchor="middle" fontSize="12" fill="#475569">
                  {periodLabel(p.period, monthly)}
                </text>
              ) : null}
            </g>
          );
        })}
        <polyline points={margin} fill="none" stroke="#047857" strokeWidth="2" />
      </svg>
      <figcaption className="mt-2 flex flex-wrap gap-4 text-sm text-slate-700">
        <span className="inline-flex items-center gap-1.5">
          <span aria-hidden="true" className="inline-block size-3 rounded-sm bg-[#2563eb]" />
          Ingresos
        </span>
        <span className="inline-flex items-center gap-1.5">
          <span aria-hidden="true" className="inline-block size-3 rounded-sm bg-[#f59e0b]" />
          Costo
        </span>
        <span className="inline-flex items-center gap-1.5">
          <span aria-hidden="true" className="inline-block h-0.5 w-4 bg-[#047857]" />
          Margen
        </span>
      </figcaption>
      <details className="mt-3 text-sm">
        <summary className="cursor-pointer text-slate-700">Ver los datos del gráfico</summary>
        <FiguresTable
          caption="Cifras por periodo"
          head="Periodo"
          rows={series.map((p) => ({
            key: p.period,
            label: periodLabel(p.period, monthly),
            figures: p,
          }))}
        />
      </details>
    </figure>
  );
}
