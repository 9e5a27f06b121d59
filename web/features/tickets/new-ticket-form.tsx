import { Form, useActionData, useNavigation } from 'react-router';
import {
  TICKET_CATEGORIES,
  TICKET_CATEGORY_LABELS,
  TICKET_SUBJECT_MAX,
} from '../../../shared/schemas/tickets';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { SelectField, TextAreaField, TextField } from '../../components/ui/field';
import { useFocusFirstInvalid } from '../../lib/focus-invalid';
import type { TicketFormResult } from './customer-actions';
import type { NewTicketDraft } from './draft';
import { FilesField } from './files-field';

/** An order the customer may link (the picker's line). */
export type OrderChoice = { id: string; number: number; serviceName: string; statusLabel: string };

const CATEGORY_OPTIONS = TICKET_CATEGORIES.map((c) => ({
  value: c,
  label: TICKET_CATEGORY_LABELS[c],
}));

/** Subject, category, linked orders, message and attachments; sent by the route's clientAction. */
export function NewTicketForm({ orders, draft }: { orders: OrderChoice[]; draft: NewTicketDraft }) {
  const result = useActionData<TicketFormResult>();
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting';
  const formRef = useFocusFirstInvalid(result);
  const fields = result?.fields ?? {};
  return (
    <Form
      ref={formRef}
      method="post"
      encType="multipart/form-data"
      aria-label="Nuevo ticket"
      noValidate
      className="flex flex-col gap-4"
    >
      {result?.formError ? <Alert tone="error">{result.formError}</Alert> : null}
      <TextField
        label="Asunto"
        name="subject"
        required
        maxLength={TICKET_SUBJECT_MAX}
        defaultValue={draft.subject}
        error={fields.subject}
      />
      <SelectField
        label="Categoría"
        name="category"
        required
        defaultValue={draft.category}
        placeholder="Elige una categoría"
        options={CATEGORY_OPTIONS}
        error={fields.category}
      />
      <fieldset className="min-w-0">
        <legend className="text-sm font-medium text-slate-800">
          Órdenes relacionadas (opcional)
        </legend>
        {orders.length === 0 ? (
          <p className="mt-1 text-sm text-slate-600">Aún no tienes órdenes.</p>
        ) : (
          <ul className="mt-1 max-h-60 overflow-y-auto rounded-lg border border-slate-200 px-3 py-1">
            {orders.map((o) => (
              <li key={o.id}>
                <label className="flex min-h-11 min-w-0 items-center gap-3 text-sm text-slate-800">
                  <input
                    type="checkbox"
                    name="orderIds"
                    value={o.id}
                    defaultChecked={draft.orderIds.includes(o.id)}
                    className="accent-brand-600 size-5 shrink-0"
                  />
                  <span className="min-w-0 truncate">
                    <span className="font-semibold">#{o.number}</span> · {o.serviceName} ·{' '}
                    <span className="text-slate-600">{o.statusLabel}</span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        )}
        {fields.orderIds ? (
          <p className="mt-1 text-sm font-medium text-red-700">{fields.orderIds}</p>
        ) : null}
      </fieldset>
      <TextAreaField
        label="Mensaje"
        name="message"
        required
        rows={6}
        defaultValue={draft.message}
        hint="Cuéntanos qué pasó: qué esperabas y qué ocurrió."
        error={fields.message}
      />
      <FilesField error={fields.files} />
      <div>
        <Button type="submit" disabled={busy}>
          {busy ? 'Enviando…' : 'Enviar ticket'}
        </Button>
      </div>
    </Form>
  );
}
