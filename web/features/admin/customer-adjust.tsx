import { useRef } from 'react';
import { useFetcher } from 'react-router';
import { formatUsd } from '../../../shared/money';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { SelectField, TextAreaField, TextField } from '../../components/ui/field';
import { newRequestKey } from './admin-api';
import type { AdminActionResult } from './types';

const KINDS = [
  { value: 'credit', label: 'Abonar (sumar a su saldo)' },
  { value: 'debit', label: 'Descontar (restar de su saldo)' },
];

/**
 * «Ajustar saldo»: a credit or a debit with its reason, through the admin adjustment endpoint
 * (POST /api/admin/users/:id/adjustments), which refuses a debit below zero.
 */
export function AdjustBalance({ userId }: { userId: string }) {
  const fetcher = useFetcher<AdminActionResult>();
  const busy = fetcher.state !== 'idle';
  const result = fetcher.state === 'idle' ? fetcher.data : undefined;
  const done = result?.ok ? result.adjusted : undefined;
  // One Idempotency-Key per adjustment: made at the first submit, kept for a retry of the same
  // form, new after each success (the form is keyed by the last transfer).
  const key = useRef<string | null>(null);
  const fields = result?.ok ? undefined : result?.fields;
  return (
    <fetcher.Form
      key={done?.transferId ?? 'new'}
      method="post"
      noValidate
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        key.current ??= newRequestKey();
        const input = event.currentTarget.elements.namedItem('idempotencyKey');
        if (input instanceof HTMLInputElement) input.value = key.current;
      }}
    >
      <input type="hidden" name="intent" value="adjust" />
      <input type="hidden" name="userId" value={userId} />
      <input type="hidden" name="idempotencyKey" defaultValue="" />
      <div aria-live="polite">
        {done ? (
          <Alert tone="success">
            {done.replayed ? 'Este ajuste ya se había aplicado; no se movió dinero otra vez. ' : ''}
            Su saldo ahora es {formatUsd(done.available)}.
          </Alert>
        ) : null}
      </div>
      {result?.formError ? <Alert tone="error">{result.formError}</Alert> : null}
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField label="Tipo de ajuste" name="kind" options={KINDS} defaultValue="credit" />
        <TextField
          label="Importe"
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          required
          placeholder="12,50"
          hint="En dólares, por ejemplo 12,50."
          error={fields?.amount}
        />
      </div>
      <TextAreaField
        label="Motivo"
        name="reason"
        required
        rows={2}
        maxLength={500}
        hint="Lo verá en su historial de movimientos."
        error={fields?.reason}
      />
      <Button type="submit" disabled={busy} className="sm:self-start">
        {busy ? 'Aplicando…' : 'Aplicar ajuste'}
      </Button>
    </fetcher.Form>
  );
}
