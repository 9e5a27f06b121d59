import { SMM_TYPE_SPECS } from '../../../shared/smm-types';
import { CheckboxField, SelectField, TextField } from '../../components/ui/field';
import { SMM_TYPE_OPTIONS, withSmmType, type ServiceDraft } from './draft';

/**
 * How the service is sold to SMM panels and what a customer can do after ordering: its SMM type
 * (which sets its unit and inputs), drip-feed, refill days and cancel requests.
 */
export function SmmSettings({
  draft,
  errors,
  onChange,
}: {
  draft: ServiceDraft;
  errors: Record<string, string | undefined>;
  onChange: (update: (d: ServiceDraft) => ServiceDraft) => void;
}) {
  const spec = draft.smmType ? SMM_TYPE_SPECS[draft.smmType] : null;
  const dripfeedPossible = spec ? spec.dripfeed : draft.unit === '1000';
  return (
    <fieldset className="flex min-w-0 flex-col gap-3 sm:rounded-xl sm:border sm:border-slate-200 sm:bg-white sm:p-4">
      <legend className="px-1 text-base font-semibold text-slate-900">
        Paneles SMM y después del pedido
      </legend>
      <SelectField
        label="Tipo de servicio SMM"
        value={draft.smmType}
        placeholder="Ninguno (datos a medida)"
        options={SMM_TYPE_OPTIONS}
        hint={
          spec
            ? `Pide exactamente: ${spec.fields.map((f) => f.label).join(', ')}. Puedes cambiar sus etiquetas y ayudas.`
            : 'Con un tipo, el servicio pide los datos de ese tipo y se vende así por la API SMM.'
        }
        error={errors.smmType}
        onChange={(e) => onChange((d) => withSmmType(d, e.target.value as ServiceDraft['smmType']))}
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Días de reposición"
          value={draft.refillDays}
          inputMode="numeric"
          autoComplete="off"
          placeholder="Sin reposición"
          hint="Tras completarse, el cliente puede pedir reposiciones durante estos días."
          error={errors.refillDays}
          onChange={(e) => {
            const value = e.target.value;
            onChange((d) => ({ ...d, refillDays: value }));
          }}
        />
        <div className="flex flex-col gap-1 sm:pt-6">
          {dripfeedPossible ? (
            <CheckboxField
              label="Admite goteo (drip-feed)"
              checked={draft.dripfeed}
              error={errors.dripfeed}
              onChange={(e) => {
                const checked = e.target.checked;
                onChange((d) => ({ ...d, dripfeed: checked }));
              }}
            />
          ) : null}
          <CheckboxField
            label="Se puede pedir la cancelación de una orden en proceso (al proveedor)"
            checked={draft.cancelable}
            error={errors.cancelable}
            onChange={(e) => {
              const checked = e.target.checked;
              onChange((d) => ({ ...d, cancelable: checked }));
            }}
          />
        </div>
      </div>
    </fieldset>
  );
}
