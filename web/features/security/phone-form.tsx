import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { JSON_POST, useSettled } from './hooks';
import { formatPhone, normalizePhone, phoneProblem } from './phone-number';
import { FETCHER_KEYS, type SecurityActionResult, type SecurityPayload } from './types';

type Step = { name: 'closed' } | { name: 'number' } | { name: 'code'; phoneNumber: string };

/**
 * The phone: its verified number, and «Añadir teléfono» / «Cambiar teléfono» — the number, a code
 * by SMS, the code typed back — after which the account can sign in with an SMS code.
 */
export function PhoneForm({
  phoneNumber,
  onStart,
}: {
  phoneNumber: string | null;
  onStart: () => void;
}) {
  const [step, setStep] = useState<Step>({ name: 'closed' });
  const [typed, setTyped] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const headingId = useId();
  const box = useRef<HTMLDivElement>(null);
  const opener = useRef<HTMLDivElement>(null);

  const fetcher = useSettled<SecurityActionResult>(FETCHER_KEYS.phone, (result) => {
    if (!result.ok) {
      setErrors(result.fields ?? {});
      setFormError(
        result.fields && Object.keys(result.fields).length > 0 ? null : (result.formError ?? null),
      );
      return;
    }
    setErrors({});
    setFormError(null);
    if (result.intent === 'phone-send' && result.phoneNumber) {
      setInfo(result.message ?? null);
      setCode('');
      setStep({ name: 'code', phoneNumber: result.phoneNumber });
    } else if (result.intent === 'phone-verify') {
      setInfo(null);
      setDone(result.message ?? null);
      setStep({ name: 'closed' });
    }
  });
  const busy = fetcher.state !== 'idle';

  // Each step puts the focus on its first input (or the first one marked invalid); closing the
  // form gives it back to the button that opened it.
  useEffect(() => {
    if (step.name === 'closed') return;
    const invalid = box.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    (invalid ?? box.current?.querySelector<HTMLElement>('input'))?.focus();
  }, [step, errors]);

  function open() {
    onStart();
    setDone(null);
    setErrors({});
    setFormError(null);
    setInfo(null);
    setStep({ name: 'number' });
  }

  function close() {
    setStep({ name: 'closed' });
    setErrors({});
    setFormError(null);
    setInfo(null);
    requestAnimationFrame(() => opener.current?.querySelector('button')?.focus());
  }

  function send(event?: FormEvent<HTMLFormElement>) {
    event?.preventDefault();
    if (busy) return;
    const number = step.name === 'code' ? step.phoneNumber : normalizePhone(typed);
    const problem = phoneProblem(number);
    if (problem) {
      setErrors({ phoneNumber: problem });
      return;
    }
    setErrors({});
    setFormError(null);
    const payload: SecurityPayload = { intent: 'phone-send', phoneNumber: number };
    void fetcher.submit(payload, JSON_POST);
  }

  function verify(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || step.name !== 'code') return;
    if (!/^\d{6}$/.test(code.trim())) {
      setErrors({ code: 'Escribe el código de 6 dígitos que te llegó por SMS.' });
      return;
    }
    setErrors({});
    setFormError(null);
    const payload: SecurityPayload = {
      intent: 'phone-verify',
      phoneNumber: step.phoneNumber,
      code: code.trim(),
    };
    void fetcher.submit(payload, JSON_POST);
  }

  return (
    <section
      aria-labelledby={headingId}
      className="flex min-w-0 flex-col gap-3 rounded-xl border border-slate-200 bg-slate-50 p-3 sm:p-4"
    >
      <h4 id={headingId} className="font-semibold text-slate-900">
        Teléfono
      </h4>
      <p className="text-sm text-slate-700" data-testid="phone-number">
        {phoneNumber ? (
          <>
            Número verificado: <strong className="tabular-nums">{formatPhone(phoneNumber)}</strong>
          </>
        ) : (
          'Sin teléfono. Añade uno para entrar con un código por SMS.'
        )}
      </p>
      <div aria-live="polite">{done ? <Alert tone="success">{done}</Alert> : null}</div>
      {step.name === 'closed' ? (
        <div ref={opener}>
          <Button variant="secondary" onClick={open}>
            {phoneNumber ? 'Cambiar teléfono' : 'Añadir teléfono'}
          </Button>
        </div>
      ) : (
        <div ref={box} className="flex flex-col gap-4">
          {step.name === 'number' ? (
            <form noValidate onSubmit={send} className="flex flex-col gap-4">
              <TextField
                label="Número de teléfono"
                type="tel"
                autoComplete="tel"
                inputMode="tel"
                required
                maxLength={24}
                value={typed}
                placeholder="+34 600 111 222"
                hint="Con el prefijo del país, por ejemplo +34 600 111 222."
                error={errors.phoneNumber}
                onChange={(e) => setTyped(e.target.value)}
              />
              {formError && !busy ? <Alert tone="error">{formError}</Alert> : null}
              <div className="flex flex-wrap gap-2">
                <Button type="submit" disabled={busy}>
                  {busy ? 'Enviando…' : 'Enviarme un código'}
                </Button>
                <Button variant="ghost" disabled={busy} onClick={close}>
                  Cancelar
                </Button>
              </div>
            </form>
          ) : (
            <form noValidate onSubmit={verify} className="flex flex-col gap-4">
              <div aria-live="polite">{info ? <Alert tone="info">{info}</Alert> : null}</div>
              <TextField
                label="Código de 6 dígitos"
                autoComplete="one-time-code"
                inputMode="numeric"
                pattern="[0-9]*"
                required
                maxLength={6}
                value={code}
                hint="Caduca en 10 minutos. Tienes 5 intentos."
                error={errors.code}
                onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
              />
              {formError && !busy ? <Alert tone="error">{formError}</Alert> : null}
              <div className="flex flex-wrap gap-2">
                <Button type="submit" disabled={busy}>
                  {busy ? 'Verificando…' : 'Verificar'}
                </Button>
                <Button variant="secondary" disabled={busy} onClick={() => send()}>
                  Enviar otro código
                </Button>
                <Button
                  variant="ghost"
                  disabled={busy}
                  onClick={() => {
                    setErrors({});
                    setFormError(null);
                    setStep({ name: 'number' });
                  }}
                >
                  Cambiar el número
                </Button>
              </div>
            </form>
          )}
        </div>
      )}
    </section>
  );
}
