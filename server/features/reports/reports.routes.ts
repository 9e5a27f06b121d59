// GET /api/admin/reports: the figures of /admin/informes, as JSON or CSV (admin and finance).
import { formatAmount, parseAmount } from '../../../shared/money';
import {
  REPORT_BREAKDOWN_LABELS,
  ReportQuerySchema,
  type Report,
} from '../../../shared/schemas/reports';
import { CSV_CONTENT_TYPE, csvAmount, toCsv, type CsvStyle } from '../../lib/csv';
import { defineRoute } from '../../lib/route';
import { buildReport } from './reports.service';

/** The breakdown as CSV: one line per row, then the totals. */
export function reportCsv(report: Report, style: CsvStyle): string {
  const excel = style.format === 'excel';
  const header = excel
    ? [
        'Clave',
        REPORT_BREAKDOWN_LABELS[report.by],
        'Ingresos (USD)',
        'Costo (USD)',
        'Margen (USD)',
        'Órdenes',
        'Reembolsos (USD)',
      ]
    : ['key', 'label', 'revenue', 'cost', 'margin', 'orders', 'refunds'];
  const amount = (v: string) => csvAmount(formatAmount(parseAmount(v) ?? 0n), style);
  const line = (key: string, label: string, r: Report['totals']) => [
    key,
    label,
    amount(r.revenue),
    amount(r.cost),
    amount(r.margin),
    String(r.orders),
    amount(r.refunds),
  ];
  return toCsv(
    header,
    [
      ...report.rows.map((r) => line(r.key, r.label, r)),
      line('total', excel ? 'Total' : 'total', report.totals),
    ],
    style.format,
  );
}

export const reportsAdminRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/admin/reports',
    operationId: 'adminGetReport',
    tag: 'Administración',
    summary: 'Informe de ingresos, costos y márgenes',
    description:
      'Las órdenes liquidadas entre `from` y `to` (días UTC, ambos incluidos): ingresos (lo cobrado neto de reembolsos: completadas y la parte entregada de las parciales, a la hora en que se cobraron), costo, margen (ingresos − costo), órdenes (completadas y parciales) y reembolsos (lo devuelto), desglosados según `by` en `rows`, con `totals`, la serie por `period` en `series`, los diez clientes con más ingresos en `topCustomers` y las recargas por método en `topups`. Los importes van como texto («12.50»). Con `format=csv` (o `excel`), el desglose y su total en CSV. Solo administradores y finanzas.',
    access: 'admin',
    roles: ['admin', 'finance'],
    query: ReportQuerySchema,
    responses: [
      {
        status: 200,
        description: 'El informe (o el archivo `informe.csv` con `format=csv` o `excel`).',
        body: 'Report',
      },
    ],
    handler: async ({ c, deps, query }) => {
      const report = await buildReport(deps.db, {
        from: query.from,
        to: query.to,
        period: query.period ?? 'day',
        by: query.by ?? 'category',
      });
      if (query.format === 'csv' || query.format === 'excel') {
        c.header('Content-Type', CSV_CONTENT_TYPE);
        c.header(
          'Content-Disposition',
          `attachment; filename="informe-${report.from}-${report.to}.csv"`,
        );
        c.header('Cache-Control', 'no-store');
        return c.body(
          reportCsv(report, {
            format: query.format === 'excel' ? 'excel' : 'rfc4180',
            timeZone: null,
          }),
        );
      }
      return c.json(report);
    },
  }),
];
