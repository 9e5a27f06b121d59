import { useState } from 'react';
import { useFetcher } from 'react-router';
import { formatUsd } from '../../../shared/money';
import { Alert } from '../../components/ui/alert';
import { Button, buttonClass } from '../../components/ui/button';
import { CsvLink } from '../../components/ui/csv-link';
import { TextAreaField, TextField } from '../../components/ui/field';
import { MAX_BATCH_SIZE, MAX_NOTE_LENGTH } from './actions';
import { Detail, formatExpiry } from '../../components/ui/section';
import type { AdminActionResult, CreatedBatch, VoucherBatch } from './types';
import { useDates } from '../../lib/dates';

function csvUrl(batchId: string): string {
  return `/api/admin/vouchers/${encodeURIComponent(batchId)}/export.csv`;
}

/** Today as yyyy-mm-dd in the admin's zone: the earliest expiry the date picker offers. */
function today(): string {
  const now = new Date();
  const pad = (n: number) => n.toString().padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export function NewVoucherBatch() {
  const fetcher = useFetcher<AdminActionResult>();
  const creating = fetcher.state !== 'idle';
  const result = fetcher.state === 'idle' ? fetcher.data : undefined;
  // The last batch created stays on screen (a later failed attempt does not hide its codes), and
  // its id keys the form, so the form empties only after a success.
  const [created, setCreated] = useState<CreatedBatch | null>(null);
  const justCreated = fetcher.data?.created;
  if (justCreated && justCreated.batch.id !== created?.batch.id) setCreated(justCreated);
  const fields = result?.ok ? undefined : result?.fields;

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <fetcher.Form
        key={created?.batch.id ?? 'new'}
        method="post"
        noValidate
        className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-slate-50 p-4"
      >
        <h3 className="text-base font-semibold text-slate-900">Nuevo lote de códigos</h3>
        <input type="hidden" name="intent" value="create-batch" />
        {result?.formError ? <Alert tone="error">{result.formError}</Alert> : null}
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField
            label="Importe por código"
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            required
            placeholder="10.00"
            hint="En dólares (USD)."
            error={fields?.amount}
          />
          <TextField
            label="Cantidad"
            name="count"
            type="number"
            required
            min={1}
            max={MAX_BATCH_SIZE}
            step={1}
            defaultValue={10}
            hint={`Entre 1 y ${MAX_BATCH_SIZE}.`}
            error={fields?.count}
          />
        </div>
        <TextField
          label="Caduca el (opcional)"
          name="expiresAt"
          type="date"
          min={today()}
          hint="Los códigos valen hasta el final de ese día (UTC). Vacío: no caducan."
          error={fields?.expiresAt}
        />
        <TextField
          label="Nota (opcional)"
          name="note"
          maxLength={MAX_NOTE_LENGTH}
          autoComplete="off"
          placeholder="Promoción de diciembre"
          hint="Solo la ven los administradores."
          error={fields?.note}
        />
        <Button type="submit" disabled={creating}>
          {creating ? 'Creando…' : 'Crear códigos'}
        </Button>
      </fetcher.Form>
      {created ? (
        <CreatedCodes key={created.batch.id} created={created} />
      ) : (
        <p className="self-center text-sm text-slate-600">
          Los códigos nuevos aparecerán aquí para copiarlos o descargarlos. Después solo se pueden
          obtener con «Exportar CSV».
        </p>
      )}
    </div>
  );
}

function CreatedCodes({ created }: { created: CreatedBatch }) {
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const text = created.codes.join('\n');
  const n = created.codes.length;

  async function copyCodes() {
    try {
      await navigator.clipboard.writeText(text);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  }

  return (
    <div className="flex flex-col gap-3">
      <Alert tone="success">
        {n === 1 ? 'Se creó 1 código' : `Se crearon ${n} códigos`} de{' '}
        {formatUsd(created.batch.amount)}.
      </Alert>
      <div className="[&_textarea]:font-mono [&_textarea]:text-sm">
        <TextAreaField
          label={`Códigos generados (${n})`}
          readOnly
          rows={Math.min(10, Math.max(3, n))}
          value={text}
          spellCheck={false}
          onFocus={(e) => e.currentTarget.select()}
        />
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={() => void copyCodes()}>
          Copiar códigos
        </Button>
        <CsvLink href={csvUrl(created.batch.id)} download className={buttonClass('secondary')}>
          Descargar CSV
        </CsvLink>
      </div>
      <p className="text-sm" aria-live="polite">
        {copy === 'copied' ? (
          <span className="text-emerald-700">Códigos copiados al portapapeles.</span>
        ) : copy === 'failed' ? (
          <span className="text-red-700">
            No pudimos copiarlos. Selecciona el texto y cópialo a mano.
          </span>
        ) : null}
      </p>
    </div>
  );
}

export function VoucherBatches({ batches }: { batches: VoucherBatch[] }) {
  const dates = useDates();
  if (batches.length === 0)
    return <p className="text-slate-600">Todavía no se ha creado ningún lote de códigos.</p>;
  return (
    <>
      {/* Phones: one card per batch. */}
      <ul className="flex flex-col gap-3 md:hidden">
        {batches.map((batch) => (
          <li key={batch.id} className="rounded-xl border border-slate-200 p-4">
            <dl className="grid grid-cols-2 gap-x-4 gap-y-3">
              <Detail label="Importe">
                <span className="font-semibold tabular-nums">{formatUsd(batch.amount)}</span>
              </Detail>
              <Detail label="Canjeados">
                <span className="tabular-nums">
                  {batch.redeemed} de {batch.count}
                </span>
              </Detail>
              <Detail label="Caduca">{formatExpiry(batch.expiresAt)}</Detail>
              <Detail label="Creado">
                <time dateTime={batch.createdAt}>{dates.dateTime(batch.createdAt)}</time>
              </Detail>
              {batch.note ? (
                <Detail label="Nota" className="col-span-2">
                  <span className="break-words">{batch.note}</span>
                </Detail>
              ) : null}
            </dl>
            <CsvLink
              href={csvUrl(batch.id)}
              download
              className={buttonClass('secondary', 'mt-3 w-full')}
            >
              Exportar CSV
              <span className="sr-only">
                {' '}
                del lote de {formatUsd(batch.amount)} creado el {dates.dateTime(batch.createdAt)}
              </span>
            </CsvLink>
          </li>
        ))}
      </ul>
      {/* Tablets and desktops: a table. */}
      <div className="hidden overflow-x-auto md:block">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">
            Lotes de códigos de recarga, los más recientes primero
          </caption>
          <thead>
            <tr className="border-b border-slate-200 text-xs tracking-wide text-slate-500 uppercase">
              <th scope="col" className="py-2 pr-4 font-medium">
                Importe
              </th>
              <th scope="col" className="py-2 pr-4 text-right font-medium">
                Cantidad
              </th>
              <th scope="col" className="py-2 pr-4 text-right font-medium">
                Canjeados
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                Caduca
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                Nota
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                Creado
              </th>
              <th scope="col" className="py-2 font-medium">
                <span className="sr-only">Acciones</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {batches.map((batch) => (
              <tr key={batch.id} className="border-b border-slate-100 align-top last:border-0">
                <td className="py-3 pr-4 font-semibold tabular-nums">{formatUsd(batch.amount)}</td>
                <td className="py-3 pr-4 text-right tabular-nums">{batch.count}</td>
                <td className="py-3 pr-4 text-right tabular-nums">{batch.redeemed}</td>
                <td className="py-3 pr-4 whitespace-nowrap">{formatExpiry(batch.expiresAt)}</td>
                <td className="max-w-56 py-3 pr-4 break-words text-slate-700">
                  {batch.note ?? '—'}
                </td>
                <td className="py-3 pr-4 whitespace-nowrap">
                  <time dateTime={batch.createdAt}>{dates.dateTime(batch.createdAt)}</time>
                  <span className="block text-xs text-slate-500">{batch.createdBy}</span>
                </td>
                <td className="py-2 text-right">
                  <CsvLink
                    href={csvUrl(batch.id)}
                    download
                    className="inline-flex min-h-11 items-center font-medium whitespace-nowrap text-brand-700 hover:underline"
                  >
                    Exportar CSV
                    <span className="sr-only">
                      {' '}
                      del lote de {formatUsd(batch.amount)} creado el{' '}
                      {dates.dateTime(batch.createdAt)}
                    </span>
                  </CsvLink>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
