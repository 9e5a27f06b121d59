/** One line of a pasted list and what became of it. */
export type LineResult = { line: number; reference: string; ok: boolean; text: string };

/** The per-line outcome of a pasted list (bulk orders, bulk completion), successes in green. */
export function LineResults({
  caption,
  referenceLabel,
  rows,
  testId,
}: {
  caption: string;
  referenceLabel: string;
  rows: readonly LineResult[];
  testId?: string;
}) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-200">
            <th scope="col" className="py-2 pr-3">
              Línea
            </th>
            <th scope="col" className="py-2 pr-3">
              {referenceLabel}
            </th>
            <th scope="col" className="py-2">
              Resultado
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.line} className="border-b border-slate-100">
              <td className="py-2 pr-3 tabular-nums">{r.line}</td>
              <td className="py-2 pr-3 font-mono break-all">{r.reference}</td>
              <td className={`py-2 ${r.ok ? 'text-emerald-800' : 'text-red-700'}`}>{r.text}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
