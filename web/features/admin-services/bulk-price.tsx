import { useRef, useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { useFetcher } from 'react-router';
import type { CategorySlug } from '../../../shared/categories';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { SelectField, TextField } from '../../components/ui/field';
import { CATEGORY_OPTIONS, bulkSentence, categoryLabel, parsePercent } from './draft';
import {
  FETCHER_KEYS,
  type AdminService,
  type ServicesActionResult,
  type ServicesPayload,
} from './types';

type Plan = { percent: number; category: CategorySlug | null; sentence: string };

/** Raise or lower every price of a category (or of the catalogue) by a percentage, confirmed first. */
export function BulkPrice({ services }: { services: AdminService[] }) {
  const fetcher = useFetcher<ServicesActionResult>({ key: FETCHER_KEYS.bulk });
  const [percent, setPercent] = useState('');
  const [category, setCategory] = useState<CategorySlug | ''>('');
  const [errors, setErrors] = useState<{ percent?: string; category?: string; form?: string }>({});
  const [plan, setPlan] = useState<Plan | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [seen, setSeen] = useState(fetcher.data);
  const confirmPanel = useRef<HTMLDivElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const busy = fetcher.state !== 'idle';

  // One answer per confirmation: show the result, or put the server's reason by its input.
  if (fetcher.state === 'idle' && fetcher.data !== seen) {
    setSeen(fetcher.data);
    const result = fetcher.data;
    setPlan(null);
    if (result?.ok) {
      setDone(result.message ?? null);
      setPercent('');
    } else if (result) {
      setErrors({
        percent: result.fields?.percent,
        category: result.fields?.category,
        form: result.fields?.percent || result.fields?.category ? undefined : result.formError,
      });
    }
  }

  function review(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setDone(null);
    const parsed = parsePercent(percent);
    const count = services.filter((s) => !category || s.category === category).length;
    const next = {
      percent: parsed.ok ? undefined : parsed.message,
      category: count === 0 ? 'No hay servicios en esa categoría.' : undefined,
    };
    setErrors(next);
    if (!parsed.ok || count === 0) return;
    flushSync(() =>
      setPlan({
        percent: parsed.value,
        category: category || null,
        sentence: bulkSentence(parsed.value, count, category ? categoryLabel(category) : null),
      }),
    );
    confirmPanel.current?.focus();
  }

  function confirm() {
    if (!plan || busy) return;
    const payload: ServicesPayload = {
      intent: 'bulk-price',
      percent: plan.percent,
      category: plan.category,
    };
    void fetcher.submit(payload, { method: 'post', encType: 'application/json' });
  }

  function back() {
    flushSync(() => setPlan(null));
    form.current?.querySelector('input')?.focus();
  }

  return (
    <div className="flex flex-col gap-4">
      <form
        ref={form}
        noValidate
        onSubmit={review}
        className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] sm:items-start"
      >
        <TextField
          label="Porcentaje"
          value={percent}
          inputMode="decimal"
          autoComplete="off"
          placeholder="10 o -5.5"
          hint="Positivo sube, negativo baja. Entre -90 y 500."
          error={errors.percent}
          onChange={(e) => {
            setPercent(e.target.value);
            setPlan(null);
          }}
        />
        <SelectField
          label="Categoría"
          value={category}
          placeholder="Todo el catálogo"
          options={CATEGORY_OPTIONS}
          error={errors.category}
          onChange={(e) => {
            setCategory(e.target.value as CategorySlug | '');
            setPlan(null);
          }}
        />
        <Button type="submit" variant="secondary" className="sm:mt-6" disabled={busy}>
          Revisar el cambio
        </Button>
      </form>
      {errors.form ? <Alert tone="error">{errors.form}</Alert> : null}
      {plan ? (
        <div
          ref={confirmPanel}
          tabIndex={-1}
          aria-labelledby="cambio-precios-plan"
          role="group"
          className="flex flex-col gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
        >
          <p id="cambio-precios-plan" className="font-semibold text-amber-900">
            {plan.sentence}
          </p>
          <p className="text-sm text-amber-900">
            Incluye los servicios inactivos. Cada precio se redondea hacia arriba al centavo y nunca
            baja de US$0.01. Las órdenes ya hechas no cambian. Cada cambio queda registrado.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button onClick={confirm} disabled={busy}>
              {busy ? 'Aplicando…' : 'Confirmar el cambio de precios'}
            </Button>
            <Button variant="ghost" disabled={busy} onClick={back}>
              Volver
            </Button>
          </div>
        </div>
      ) : null}
      <div aria-live="polite">{done ? <Alert tone="success">{done}</Alert> : null}</div>
    </div>
  );
}
