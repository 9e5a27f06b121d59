import { useEffect, useMemo, useRef, useState } from 'react';
import { useFetcher } from 'react-router';
import {
  parseResultLines,
  type BulkCompletePreview,
  type BulkCompleteResult,
} from '../../../shared/bulk-results';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextAreaField } from '../../components/ui/field';
import { LineResults } from '../../components/ui/line-results';
import { ApiError } from '../../lib/api';
import { previewBulkComplete } from './orders-api';
import { plural } from '../../../shared/plural';

export type BulkCompleteActionResult =
  | { intent: 'bulk-complete'; ok: true; submitted: string; result: BulkCompleteResult }
  | { intent: 'bulk-complete'; ok: false; message: string };

/**
 * Pasted results, one line per order: "#123 result" or "IMEI result". The lines are checked as
 * they are typed (their form only); «Revisar» then shows, line by line, which order each names
 * (customer, service, state) and what completing would do, and only that reviewed text can be
 * completed. After sending, the lines that were not completed stay in the box to be fixed.
 */
export function BulkComplete() {
  const fetcher = useFetcher<BulkCompleteActionResult>();
  const [text, setText] = useState('');
  const [preview, setPreview] = useState<BulkCompletePreview | null>(null);
  const [reviewing, setReviewing] = useState(false);
  const [reviewError, setReviewError] = useState<string | null>(null);
  const handled = useRef<BulkCompleteActionResult | undefined>(undefined);
  const busy = fetcher.state !== 'idle';
  const data = fetcher.state === 'idle' ? fetcher.data : undefined;
  const parsed = useMemo(() => parseResultLines(text), [text]);
  const wellFormed = parsed.filter((l) => l.ok).length;
  const invalid = parsed.filter((l) => !l.ok);

  // Keep only the lines that failed, so they can be corrected, reviewed and sent again.
  useEffect(() => {
    if (!data || handled.current === data || !data.ok) return;
    handled.current = data;
    const lines = data.submitted.split(/\r?\n/);
    const failed = data.result.results
      .filter((r) => !r.ok)
      .map((r) => lines[r.line - 1]?.trim() ?? '')
      .filter(Boolean);
    setText(failed.join('\n'));
    setPreview(null);
  }, [data]);

  async function review() {
    setReviewing(true);
    setReviewError(null);
    try {
      setPreview(await previewBulkComplete(text));
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      setReviewError(err.fields.text ?? err.message);
    } finally {
      setReviewing(false);
    }
  }

  const ready = preview?.ready ?? 0;
  return (
    <div className="flex flex-col gap-4">
      <fetcher.Form method="post" noValidate className="flex flex-col gap-3">
        <input type="hidden" name="intent" value="bulk-complete" />
        <TextAreaField
          label="Resultados, uno por línea"
          name="text"
          rows={6}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setPreview(null);
            setReviewError(null);
          }}
          spellCheck={false}
          placeholder={'#123 Código: 12345678\n359702373699048 | Operador: Telcel · Sin bloqueo'}
          hint="Empieza cada línea con el número de orden (#123) o el IMEI, y después el resultado. Sirve lo que copias de una hoja de cálculo (separado por tabuladores). Revisa antes de completar: verás qué orden nombra cada línea."
          error={reviewError ?? (data && !data.ok ? data.message : undefined)}
        />
        <p className="text-sm text-slate-700" aria-live="polite">
          {parsed.length === 0
            ? 'Pega los resultados para revisarlos antes de completarlos.'
            : `${plural(parsed.length, 'línea', 'líneas')}${invalid.length ? `, ${plural(invalid.length, 'mal escrita', 'mal escritas')}` : ''}.${preview ? '' : ' Revísalas para ver qué orden nombra cada una.'}`}
        </p>
        {invalid.length > 0 ? (
          <ul className="list-disc pl-5 text-sm text-red-700">
            {invalid.slice(0, 20).map((l) => (
              <li key={l.line}>
                Línea {l.line}: {l.ok ? '' : l.message}
              </li>
            ))}
            {invalid.length > 20 ? <li>Y {invalid.length - 20} más.</li> : null}
          </ul>
        ) : null}
        {preview ? <PreviewTable preview={preview} /> : null}
        <div className="flex flex-wrap gap-3">
          <Button
            type="button"
            variant={preview ? 'secondary' : 'primary'}
            disabled={reviewing || busy || wellFormed === 0}
            onClick={() => void review()}
          >
            {reviewing
              ? 'Revisando…'
              : preview
                ? 'Revisar de nuevo'
                : `Revisar ${plural(wellFormed, 'línea', 'líneas')}`}
          </Button>
          {preview ? (
            <Button type="submit" disabled={busy || ready === 0}>
              {busy
                ? 'Completando…'
                : ready > 0
                  ? `Completar ${plural(ready, 'orden', 'órdenes')}`
                  : 'Ninguna orden para completar'}
            </Button>
          ) : null}
        </div>
      </fetcher.Form>
      {data?.ok ? <BulkOutcome result={data.result} /> : null}
    </div>
  );
}

/** Line → order, customer, service, current state, and what will happen: before anything changes. */
function PreviewTable({ preview }: { preview: BulkCompletePreview }) {
  return (
    <div className="flex flex-col gap-2">
      <Alert tone={preview.ready === 0 ? 'warning' : preview.skipped === 0 ? 'success' : 'info'}>
        {preview.ready > 0
          ? `${plural(preview.ready, 'orden se completará', 'órdenes se completarán')}`
          : 'Ninguna línea completaría una orden'}
        {preview.skipped > 0
          ? `; ${plural(preview.skipped, 'línea no cambiará nada', 'líneas no cambiarán nada')}.`
          : '.'}{' '}
        Nada cambia hasta que pulses «Completar».
      </Alert>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm" data-testid="bulk-preview">
          <caption className="sr-only">Vista previa: qué pasará con cada línea</caption>
          <thead>
            <tr className="border-b border-slate-200">
              {['Línea', 'Referencia', 'Orden', 'Cliente', 'Servicio', 'Estado actual'].map((h) => (
                <th key={h} scope="col" className="py-2 pr-3 whitespace-nowrap">
                  {h}
                </th>
              ))}
              <th scope="col" className="py-2">
                Qué pasará
              </th>
            </tr>
          </thead>
          <tbody>
            {preview.lines.map((l) => (
              <tr key={l.line} className="border-b border-slate-100 align-top">
                <td className="py-2 pr-3 tabular-nums">{l.line}</td>
                <td className="py-2 pr-3 font-mono break-all">{l.reference}</td>
                <td className="py-2 pr-3 whitespace-nowrap">
                  {l.order ? `#${l.order.number}` : '—'}
                </td>
                <td className="py-2 pr-3 break-words">
                  {l.order ? (
                    <>
                      {l.order.customerName}
                      <span className="block text-xs text-slate-600">{l.order.customerEmail}</span>
                    </>
                  ) : (
                    '—'
                  )}
                </td>
                <td className="py-2 pr-3">{l.order?.serviceName ?? '—'}</td>
                <td className="py-2 pr-3 whitespace-nowrap">{l.order?.statusLabel ?? '—'}</td>
                <td
                  className={`py-2 ${l.action === 'complete' ? 'text-emerald-800' : 'text-red-700'}`}
                >
                  {l.message}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function BulkOutcome({ result }: { result: BulkCompleteResult }) {
  return (
    <div className="flex flex-col gap-3">
      <Alert tone={result.failed === 0 ? 'success' : result.completed === 0 ? 'error' : 'warning'}>
        {result.completed > 0
          ? `${plural(result.completed, 'orden completada', 'órdenes completadas')}; avisamos a cada cliente por correo.`
          : 'No se completó ninguna orden.'}
        {result.failed > 0
          ? ` ${plural(result.failed, 'línea no se completó', 'líneas no se completaron')}: quedan en el cuadro para corregirlas.`
          : ''}
      </Alert>
      <LineResults
        caption="Resultado de cada línea"
        referenceLabel="Referencia"
        rows={result.results.map((r) => ({
          line: r.line,
          reference: r.reference,
          ok: r.ok,
          text: r.ok ? `Orden #${r.number} completada` : r.message,
        }))}
      />
    </div>
  );
}
