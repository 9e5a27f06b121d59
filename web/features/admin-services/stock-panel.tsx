// «Stock» of a service delivered from stock: its counts, «Cargar stock» (paste or a .txt/.csv
// file, checked here first), the result line by line, the newest items (last 4 characters only)
// and «Exportar no vendidos».
import { useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useFetcher, useRevalidator } from 'react-router';
import { plural } from '../../../shared/plural';
import { STOCK_ITEM_STATE_LABELS, type StockSummary } from '../../../shared/schemas/stock';
import { Alert } from '../../components/ui/alert';
import { Button, buttonClass } from '../../components/ui/button';
import { TextAreaField } from '../../components/ui/field';
import { useDates } from '../../lib/dates';
import type { Loaded } from '../../lib/loaded';
import { stockExportUrl } from './stock-api';
import {
  STOCK_FILE_ACCEPT,
  checkStockText,
  stockFileProblem,
  stockTextProblem,
  stockTextSummary,
  type StockText,
} from './stock-upload';
import { STOCK_UPLOAD_INTENT, stockFetcherKey, type ServicesActionResult } from './types';

/**
 * The stock panel under a service's row (opened with «Stock»): the stock comes with the page,
 * which is read again after an upload and by «Actualizar».
 */
export function StockPanel({
  serviceId,
  serviceName,
  stock,
}: {
  serviceId: string;
  serviceName: string;
  /** Undefined while the page has not read it yet (the service just became a stock service). */
  stock: Loaded<StockSummary> | undefined;
}) {
  const headingId = useId();
  const revalidator = useRevalidator();
  const reloading = revalidator.state !== 'idle';
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-4 rounded-xl border border-slate-200 bg-white p-3 sm:p-4"
      data-testid="stock-panel"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 id={headingId} className="text-base font-semibold text-slate-900">
          Stock<span className="sr-only"> de {serviceName}</span>
        </h4>
        <div className="flex flex-wrap gap-2">
          <a
            href={stockExportUrl(serviceId)}
            download
            className={buttonClass('secondary')}
            data-testid="stock-export"
          >
            Exportar no vendidos<span className="sr-only"> de {serviceName} (CSV)</span>
          </a>
          <Button
            variant="ghost"
            disabled={reloading}
            onClick={() => void revalidator.revalidate()}
          >
            {reloading ? 'Actualizando…' : 'Actualizar'}
            <span className="sr-only"> el stock de {serviceName}</span>
          </Button>
        </div>
      </div>
      {stock ? (
        <StockSummaryView loaded={stock} />
      ) : (
        <p role="status" className="text-sm text-slate-600">
          Cargando el stock…
        </p>
      )}
      <StockUpload serviceId={serviceId} serviceName={serviceName} />
    </section>
  );
}

function Count({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <div className="rounded-lg bg-slate-50 px-3 py-2">
      <dt className="text-xs text-slate-600">{label}</dt>
      <dd className="text-xl font-semibold text-slate-900 tabular-nums" data-testid={testId}>
        {value.toLocaleString('es-MX')}
      </dd>
    </div>
  );
}

function StockSummaryView({ loaded }: { loaded: Loaded<StockSummary> }) {
  const dates = useDates();
  if (!loaded.ok) return <Alert tone="error">No pudimos cargar el stock. {loaded.error}</Alert>;
  const stock = loaded.data;
  const low = stock.lowStockThreshold > 0 && stock.available <= stock.lowStockThreshold;
  return (
    <div className="flex flex-col gap-3">
      <dl className="grid grid-cols-3 gap-2">
        <Count label="Disponibles" value={stock.available} testId="stock-available" />
        <Count label="Vendidos" value={stock.sold} testId="stock-sold" />
        <Count label="Defectuosos" value={stock.bad} testId="stock-bad" />
      </dl>
      {stock.available === 0 ? (
        <p className="text-sm font-medium text-red-700">
          Agotado: sin proveedores de respaldo, los clientes no pueden pedirlo.
        </p>
      ) : low ? (
        <p className="text-sm font-medium text-amber-900">
          Queda poco stock: {plural(stock.available, 'artículo', 'artículos')} (avisamos con{' '}
          {stock.lowStockThreshold} o menos).
        </p>
      ) : stock.lowStockThreshold > 0 ? (
        <p className="text-sm text-slate-600">
          Avisamos por correo cuando queden {stock.lowStockThreshold} o menos.
        </p>
      ) : null}
      {stock.items.length > 0 ? (
        <div>
          <h5 className="text-sm font-semibold text-slate-900">Últimos artículos cargados</h5>
          <p className="text-xs text-slate-600">
            Solo se muestran los últimos 4 caracteres; el artículo completo lo ve solo el cliente
            que lo compró.
          </p>
          <ul
            className="mt-2 divide-y divide-slate-100 text-sm"
            data-testid="stock-items"
            aria-label="Últimos artículos cargados"
          >
            {stock.items.map((item) => (
              <li key={item.id} className="flex flex-wrap items-center gap-x-3 gap-y-0.5 py-1.5">
                <span className="font-mono text-slate-900">
                  <span aria-hidden="true">••••</span>
                  <span className="sr-only">Termina en </span>
                  {item.last4}
                </span>
                <span
                  className={`rounded-full px-2 py-px text-xs font-semibold ${
                    item.state === 'available'
                      ? 'bg-emerald-100 text-emerald-800'
                      : item.state === 'bad'
                        ? 'bg-red-100 text-red-800'
                        : 'bg-slate-200 text-slate-800'
                  }`}
                >
                  {STOCK_ITEM_STATE_LABELS[item.state]}
                </span>
                {item.orderNumber !== null ? (
                  <span className="text-slate-700">Orden #{item.orderNumber}</span>
                ) : null}
                <span className="text-xs text-slate-600">
                  Cargado el {dates.dateTime(item.createdAt)}
                </span>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="text-sm text-slate-600">Todavía no se cargó ningún artículo.</p>
      )}
    </div>
  );
}

type PickedFile = { file: File; checked: StockText };

/** «Cargar stock»: a paste or a file, checked here, sent as a multipart form to the page's action. */
function StockUpload({ serviceId, serviceName }: { serviceId: string; serviceName: string }) {
  const fetcher = useFetcher<ServicesActionResult>({ key: stockFetcherKey(serviceId) });
  const [text, setText] = useState('');
  const [picked, setPicked] = useState<PickedFile | null>(null);
  const [reading, setReading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const fileId = useId();
  const busy = fetcher.state !== 'idle';
  // Once per answer, during render: a successful upload empties the form (the row reloads the
  // counts, the page the list).
  const [seen, setSeen] = useState(fetcher.data);
  if (fetcher.state === 'idle' && fetcher.data !== seen) {
    setSeen(fetcher.data);
    if (fetcher.data?.ok) {
      setText('');
      setPicked(null);
    }
  }
  const result = fetcher.state === 'idle' ? fetcher.data : undefined;
  const checked = picked ? picked.checked : checkStockText(text);

  async function pick(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    setError(null);
    if (!file) {
      setPicked(null);
      return;
    }
    const problem = stockFileProblem(file);
    if (problem) {
      setPicked(null);
      setError(problem);
      event.target.value = '';
      return;
    }
    setReading(true);
    try {
      const contents = await file.text();
      const fileChecked = checkStockText(contents);
      const tooMany = stockTextProblem(fileChecked);
      if (tooMany) {
        setPicked(null);
        setError(tooMany);
        if (fileInput.current) fileInput.current.value = '';
      } else setPicked({ file, checked: fileChecked });
    } catch {
      setError('No pudimos leer el archivo. Elige otro.');
    } finally {
      setReading(false);
    }
  }

  function dropFile() {
    setPicked(null);
    setError(null);
    if (fileInput.current) {
      fileInput.current.value = '';
      fileInput.current.focus();
    }
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || reading) return;
    const problem = stockTextProblem(checked);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    const form = new FormData();
    form.set('intent', STOCK_UPLOAD_INTENT);
    form.set('id', serviceId);
    if (picked) form.set('file', picked.file);
    else form.set('text', text);
    void fetcher.submit(form, { method: 'post', encType: 'multipart/form-data' });
  }

  return (
    <form
      noValidate
      onSubmit={submit}
      className="flex flex-col gap-3 border-t border-slate-200 pt-3"
    >
      <h5 className="text-sm font-semibold text-slate-900">Cargar stock</h5>
      {picked ? (
        <div className="flex flex-wrap items-center gap-2 rounded-lg bg-slate-50 p-2 text-sm">
          <p className="min-w-0 break-all text-slate-800">
            Archivo «{picked.file.name}»: {stockTextSummary(picked.checked)}
          </p>
          <Button variant="ghost" onClick={dropFile}>
            Quitar archivo
          </Button>
        </div>
      ) : (
        <TextAreaField
          label="Artículos (uno por línea)"
          rows={5}
          value={text}
          spellCheck={false}
          autoComplete="off"
          hint={stockTextSummary(checked)}
          onChange={(e) => {
            setText(e.target.value);
            setError(null);
          }}
        />
      )}
      <div>
        <label htmlFor={fileId} className="block text-sm font-medium text-slate-800">
          {picked ? 'Elegir otro archivo' : 'O elige un archivo .txt o .csv'}
        </label>
        <input
          ref={fileInput}
          id={fileId}
          type="file"
          accept={STOCK_FILE_ACCEPT}
          aria-describedby={`${fileId}-hint`}
          className="mt-1 block w-full max-w-full text-sm text-slate-800 file:mr-3 file:min-h-11 file:rounded-lg file:border file:border-slate-300 file:bg-white file:px-3 file:text-sm file:font-medium file:text-slate-800"
          onChange={(e) => void pick(e)}
        />
        <p id={`${fileId}-hint`} className="mt-1 text-sm text-slate-600">
          Un artículo por línea, hasta 10,000 por carga.
        </p>
      </div>
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div>
        <Button type="submit" disabled={busy || reading}>
          {busy ? 'Cargando…' : reading ? 'Leyendo el archivo…' : 'Cargar stock'}
          <span className="sr-only"> de {serviceName}</span>
        </Button>
      </div>
      <div aria-live="polite">
        {result && !result.ok && result.formError ? (
          <Alert tone="error">{result.formError}</Alert>
        ) : null}
        {result?.ok && result.upload ? <UploadResult result={result} /> : null}
      </div>
    </form>
  );
}

function UploadResult({ result }: { result: ServicesActionResult }) {
  const refused = [...(result.upload?.refused ?? [])].sort((a, b) => a.line - b.line);
  return (
    <div className="flex flex-col gap-2" data-testid="stock-upload-result">
      <Alert tone={result.upload?.added ? 'success' : 'warning'}>
        {result.message}
        {refused.length > 0
          ? ` ${plural(refused.length, 'línea no se agregó', 'líneas no se agregaron')}:`
          : ''}
      </Alert>
      {refused.length > 0 ? (
        <ul className="flex flex-col gap-1 text-sm text-red-800" data-testid="stock-refused">
          {refused.slice(0, 50).map((r) => (
            <li key={r.line}>
              <span className="font-semibold">Línea {r.line}:</span> {r.reason}
            </li>
          ))}
          {refused.length > 50 ? <li>Y {refused.length - 50} más.</li> : null}
        </ul>
      ) : null}
    </div>
  );
}
