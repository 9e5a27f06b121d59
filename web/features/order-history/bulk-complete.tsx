import { useEffect, useMemo, useRef, useState } from 'react';
import { useFetcher } from 'react-router';
import { parseResultLines, type BulkCompleteResult } from '../../../shared/bulk-results';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextAreaField } from '../../components/ui/field';
import { LineResults } from '../../components/ui/line-results';

export type BulkCompleteActionResult =
  | { intent: 'bulk-complete'; ok: true; submitted: string; result: BulkCompleteResult }
  | { intent: 'bulk-complete'; ok: false; message: string };

function plural(n: number, one: string, many: string) {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * Pasted results, one line per order: "#123 result" or "IMEI result". The lines are checked as
 * they are typed; after sending, the lines that were not completed stay in the box to be fixed.
 */
export function BulkComplete() {
  const fetcher = useFetcher<BulkCompleteActionResult>();
  const [text, setText] = useState('');
  const handled = useRef<BulkCompleteActionResult | undefined>(undefined);
  const busy = fetcher.state !== 'idle';
  const data = fetcher.state === 'idle' ? fetcher.data : undefined;
  const parsed = useMemo(() => parseResultLines(text), [text]);
  const ready = parsed.filter((l) => l.ok).length;
  const invalid = parsed.filter((l) => !l.ok);

  // Keep only the lines that failed, so they can be corrected and sent again.
  useEffect(() => {
    if (!data || handled.current === data || !data.ok) return;
    handled.current = data;
    const lines = data.submitted.split(/\r?\n/);
    const failed = data.result.results
      .filter((r) => !r.ok)
      .map((r) => lines[r.line - 1]?.trim() ?? '')
      .filter(Boolean);
    setText(failed.join('\n'));
  }, [data]);

  return (
    <div className="flex flex-col gap-4">
      <fetcher.Form method="post" noValidate className="flex flex-col gap-3">
        <input type="hidden" name="intent" value="bulk-complete" />
        <TextAreaField
          label="Resultados, uno por línea"
          name="text"
          rows={6}
          value={text}
          onChange={(e) => setText(e.target.value)}
          spellCheck={false}
          placeholder={'#123 Código: 12345678\n359702373699048 | Operador: Telcel · Sin bloqueo'}
          hint="Empieza cada línea con el número de orden (#123) o el IMEI, y después el resultado. Sirve lo que copias de una hoja de cálculo (separado por tabuladores)."
          error={data && !data.ok ? data.message : undefined}
        />
        <p className="text-sm text-slate-700" aria-live="polite">
          {parsed.length === 0
            ? 'Pega los resultados para revisarlos antes de enviarlos.'
            : `${plural(ready, 'línea lista', 'líneas listas')}${invalid.length ? `, ${plural(invalid.length, 'con error', 'con errores')}` : ''}.`}
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
        <div>
          <Button type="submit" disabled={busy || ready === 0}>
            {busy
              ? 'Completando…'
              : ready > 0
                ? `Completar ${plural(ready, 'orden', 'órdenes')}`
                : 'Completar órdenes'}
          </Button>
        </div>
      </fetcher.Form>
      {data?.ok ? <BulkOutcome result={data.result} /> : null}
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
