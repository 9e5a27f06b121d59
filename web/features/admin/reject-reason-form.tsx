import type { FormEventHandler, RefObject } from 'react';
import type { FetcherWithComponents } from 'react-router';
import { Button } from '../../components/ui/button';
import { TextAreaField } from '../../components/ui/field';

/**
 * The «Motivo del rechazo» form under a row of a review list (manual requests, held top-ups):
 * the reason, «Confirmar rechazo» and «Cancelar», posted through the row's own fetcher.
 */
export function RejectReasonForm({
  Form,
  formRef,
  onSubmit,
  intent,
  id,
  hint,
  error,
  busy,
  submitting,
  onCancel,
}: {
  Form: FetcherWithComponents<unknown>['Form'];
  formRef: RefObject<HTMLFormElement | null>;
  onSubmit: FormEventHandler<HTMLFormElement>;
  intent: string;
  id: string;
  hint: string;
  error: string | undefined;
  busy: boolean;
  submitting: boolean;
  onCancel: () => void;
}) {
  return (
    <Form
      ref={formRef}
      method="post"
      noValidate
      onSubmit={onSubmit}
      className="mt-4 flex flex-col gap-3 rounded-lg border border-red-200 bg-red-50/40 p-3"
    >
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <TextAreaField
        label="Motivo del rechazo"
        name="reason"
        required
        rows={2}
        maxLength={500}
        hint={hint}
        error={error}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="danger" disabled={busy}>
          {submitting ? 'Rechazando…' : 'Confirmar rechazo'}
        </Button>
        <Button variant="ghost" disabled={busy} onClick={onCancel}>
          Cancelar
        </Button>
      </div>
    </Form>
  );
}
