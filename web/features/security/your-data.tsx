import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Alert } from '../../components/ui/alert';
import { Button, buttonClass } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { JSON_POST, useSettled } from './hooks';
import { FETCHER_KEYS, type SecurityActionResult, type SecurityPayload } from './types';

/** «Tus datos»: a copy of everything (a JSON file), and deleting the account. */
export function YourData({
  hasPassword,
  twoFactorEnabled,
}: {
  hasPassword: boolean;
  twoFactorEnabled: boolean;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="flex min-w-0 flex-col gap-4">
      <h3 id={headingId} className="text-base font-semibold text-slate-900">
        Tus datos
      </h3>
      <div className="flex flex-col gap-3">
        <p className="text-sm text-slate-600">
          Descarga una copia de tus datos en un archivo JSON: tu perfil, tus órdenes, tus
          movimientos de saldo y tus pagos.
        </p>
        <div>
          <a href="/api/me/export" download className={buttonClass('secondary')}>
            Descargar mis datos
          </a>
        </div>
      </div>
      <DeleteAccount hasPassword={hasPassword} twoFactorEnabled={twoFactorEnabled} />
    </section>
  );
}

function DeleteAccount({
  hasPassword,
  twoFactorEnabled,
}: {
  hasPassword: boolean;
  twoFactorEnabled: boolean;
}) {
  const headingId = useId();
  const [open, setOpen] = useState(false);
  const [toggled, setToggled] = useState(false);
  const [secret, setSecret] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const fetcher = useSettled<SecurityActionResult>(FETCHER_KEYS.deleteAccount, (result) => {
    // Success navigates away (to the home page); only refusals come back here.
    if (result.ok) return;
    const fields = result.fields ?? {};
    setErrors(fields);
    setFormError(Object.keys(fields).length > 0 ? null : (result.formError ?? null));
  });
  const busy = fetcher.state !== 'idle';
  /** How this account confirms: its password, else a code of its authenticator app. */
  const proof = hasPassword ? 'password' : twoFactorEnabled ? 'code' : null;

  // Opening the form focuses its first input; an error, the input it names.
  useEffect(() => {
    if (!toggled) return;
    if (!open) {
      box.current?.querySelector<HTMLElement>('button')?.focus();
      return;
    }
    const target =
      box.current?.querySelector<HTMLElement>('[aria-invalid="true"]') ??
      box.current?.querySelector<HTMLElement>('input');
    target?.focus();
  }, [open, toggled, errors]);

  function toggle(next: boolean) {
    setToggled(true);
    setOpen(next);
    setErrors({});
    setFormError(null);
    setSecret('');
    setConfirm('');
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !proof) return;
    const found: Record<string, string> = {};
    if (proof === 'password' && secret === '') found.password = 'Escribe tu contraseña.';
    if (proof === 'code' && !/^\d{6}$/.test(secret.replace(/\s/g, '')))
      found.code = 'Escribe el código de 6 dígitos de tu aplicación.';
    if (confirm.trim() !== 'ELIMINAR') found.confirm = 'Escribe ELIMINAR para confirmar.';
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length > 0) return;
    const payload: SecurityPayload =
      proof === 'password'
        ? { intent: 'account-delete', password: secret, confirm: confirm.trim() }
        : { intent: 'account-delete', code: secret.replace(/\s/g, ''), confirm: confirm.trim() };
    void fetcher.submit(payload, JSON_POST);
  }

  return (
    <section
      aria-labelledby={headingId}
      className="flex min-w-0 flex-col gap-3 rounded-xl border border-red-200 bg-red-50/50 p-3 sm:p-4"
    >
      <h4 id={headingId} className="font-semibold text-red-900">
        Eliminar mi cuenta
      </h4>
      <ul className="list-disc space-y-1 pl-5 text-sm text-slate-800">
        <li>
          Solo puedes eliminarla con el saldo en US$0.00 y sin órdenes en curso. Si te queda saldo,
          úsalo o escríbenos.
        </li>
        <li>
          Borramos o anonimizamos tus datos personales: tu nombre, tu correo, tu teléfono, tus
          métodos de acceso, tus claves API y tus avisos.
        </li>
        <li>
          Tus órdenes y movimientos de saldo se conservan anonimizados, sin nada que te identifique,
          porque la ley contable nos obliga a guardarlos.
        </li>
        <li>Se cierran todas tus sesiones. No se puede deshacer.</li>
      </ul>
      <div ref={box}>
        {!open ? (
          <Button variant="danger" onClick={() => toggle(true)}>
            Eliminar mi cuenta
          </Button>
        ) : proof === null ? (
          <div className="flex flex-col gap-3">
            <Alert tone="warning">
              Para confirmar que eres tú necesitamos tu contraseña o un código de tu aplicación de
              autenticación, y tu cuenta no tiene ninguna de las dos. Activa la verificación en dos
              pasos o crea una contraseña desde{' '}
              <Link to="/recuperar" className="font-semibold underline">
                «¿Olvidaste tu contraseña?»
              </Link>
              .
            </Alert>
            <div>
              <Button variant="secondary" onClick={() => toggle(false)}>
                Volver
              </Button>
            </div>
          </div>
        ) : (
          <form noValidate onSubmit={submit} className="flex flex-col gap-4">
            {proof === 'password' ? (
              <TextField
                label="Tu contraseña"
                name="password"
                type="password"
                autoComplete="current-password"
                required
                value={secret}
                error={errors.password}
                onChange={(e) => setSecret(e.target.value)}
              />
            ) : (
              <TextField
                label="Código de tu aplicación de autenticación"
                name="code"
                autoComplete="one-time-code"
                inputMode="numeric"
                required
                maxLength={7}
                value={secret}
                hint="Los 6 dígitos que muestra ahora tu aplicación."
                error={errors.code}
                onChange={(e) => setSecret(e.target.value)}
              />
            )}
            <TextField
              label="Escribe ELIMINAR para confirmar"
              name="confirm"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              required
              value={confirm}
              error={errors.confirm}
              onChange={(e) => setConfirm(e.target.value)}
            />
            {formError && !busy ? <Alert tone="error">{formError}</Alert> : null}
            <div className="flex flex-wrap gap-2">
              <Button type="submit" variant="danger" disabled={busy}>
                {busy ? 'Eliminando…' : 'Eliminar mi cuenta para siempre'}
              </Button>
              <Button variant="secondary" disabled={busy} onClick={() => toggle(false)}>
                Cancelar
              </Button>
            </div>
          </form>
        )}
      </div>
    </section>
  );
}
