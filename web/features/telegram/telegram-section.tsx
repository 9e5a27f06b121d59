import { useId, useState, type FormEvent } from 'react';
import {
  NOTIFICATION_KIND_LABELS,
  NotificationSettingsSchema,
  TelegramLinkSchema,
  type NotificationKind,
  type NotificationSettings,
  type TelegramLink,
} from '../../../shared/schemas/notifications';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { CopyButton } from '../../components/ui/copy-button';
import { Section } from '../../components/ui/section';
import { api, ApiError } from '../../lib/api';
import { useDates } from '../../lib/dates';
import type { Loaded } from '../../lib/loaded';

type Status = { tone: 'success' | 'error' | 'info'; text: string } | null;

function errorText(err: unknown): string {
  return err instanceof ApiError ? err.message : 'Algo salió mal. Inténtalo de nuevo.';
}

/**
 * Mi perfil → Notificaciones → Telegram: link the account to the shop's bot with a one-time
 * code, see whether it is linked (and unlink it), and choose which notices arrive there. Staff
 * use the same section: the kinds offered are those of their role.
 */
export function TelegramSection({ initial }: { initial: Loaded<NotificationSettings> }) {
  if (!initial.ok)
    return (
      <Section id="telegram" title="Telegram">
        <Alert tone="error">{initial.error}</Alert>
      </Section>
    );
  return <TelegramSettings initial={initial.data} />;
}

function TelegramSettings({ initial }: { initial: NotificationSettings }) {
  const { dateTime } = useDates();
  const [settings, setSettings] = useState(initial);
  const [chosen, setChosen] = useState<NotificationKind[]>(initial.telegram);
  const [code, setCode] = useState<TelegramLink | null>(null);
  const [busy, setBusy] = useState<'link' | 'check' | 'unlink' | 'save' | null>(null);
  const [status, setStatus] = useState<Status>(null);
  const legendId = useId();

  function apply(next: NotificationSettings) {
    setSettings(next);
    setChosen(next.telegram);
  }

  async function startLink() {
    setBusy('link');
    setStatus(null);
    try {
      setCode(await api.post('/api/me/telegram/link', TelegramLinkSchema));
    } catch (err) {
      setStatus({ tone: 'error', text: errorText(err) });
    } finally {
      setBusy(null);
    }
  }

  async function check() {
    setBusy('check');
    setStatus(null);
    try {
      const next = await api.get('/api/me/notifications', NotificationSettingsSchema);
      apply(next);
      if (next.telegramLink?.active) {
        setCode(null);
        setStatus({ tone: 'success', text: 'Listo: tu cuenta de Telegram quedó vinculada.' });
      } else {
        setStatus({
          tone: 'info',
          text: 'Todavía no recibimos el código. Ábrelo en Telegram, pulsa «Iniciar» y vuelve a comprobarlo.',
        });
      }
    } catch (err) {
      setStatus({ tone: 'error', text: errorText(err) });
    } finally {
      setBusy(null);
    }
  }

  async function unlink() {
    setBusy('unlink');
    setStatus(null);
    try {
      apply(await api.send('/api/me/telegram', NotificationSettingsSchema, { method: 'DELETE' }));
      setCode(null);
      setStatus({ tone: 'success', text: 'Desvinculamos tu cuenta de Telegram.' });
    } catch (err) {
      setStatus({ tone: 'error', text: errorText(err) });
    } finally {
      setBusy(null);
    }
  }

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy('save');
    setStatus(null);
    try {
      apply(
        await api.send('/api/me/notifications', NotificationSettingsSchema, {
          method: 'PUT',
          body: { telegram: chosen },
        }),
      );
      setStatus({ tone: 'success', text: 'Guardamos tus avisos de Telegram.' });
    } catch (err) {
      setStatus({ tone: 'error', text: errorText(err) });
    } finally {
      setBusy(null);
    }
  }

  function toggle(kind: NotificationKind, on: boolean) {
    setChosen((current) =>
      on
        ? settings.available.filter((k) => k === kind || current.includes(k))
        : current.filter((k) => k !== kind),
    );
  }

  const link = settings.telegramLink;
  return (
    <Section
      id="telegram"
      title="Telegram"
      description="Recibe en Telegram, al momento, los avisos que elijas. Solo hace falta vincular tu cuenta una vez con el bot de la tienda."
    >
      <div className="flex flex-col gap-4">
        {!settings.telegramEnabled ? (
          <Alert tone="info">
            Esta tienda todavía no tiene un bot de Telegram, así que los avisos por Telegram no
            están disponibles.
          </Alert>
        ) : null}

        {link?.active ? (
          <div className="flex flex-col gap-3 rounded-lg border border-emerald-200 bg-emerald-50 p-4 sm:flex-row sm:items-center sm:justify-between">
            <p className="text-sm text-emerald-900">
              <span className="font-semibold">Vinculado</span>
              {link.username ? <> con @{link.username}</> : null} desde el {dateTime(link.linkedAt)}
              .
            </p>
            <Button variant="secondary" onClick={() => void unlink()} disabled={busy !== null}>
              {busy === 'unlink' ? 'Desvinculando…' : 'Desvincular'}
            </Button>
          </div>
        ) : null}

        {link && !link.active ? (
          <Alert tone="warning">
            Telegram dejó de entregar nuestros mensajes (quizá bloqueaste el bot). Vuelve a
            vincularlo para recibir avisos otra vez.
          </Alert>
        ) : null}

        {settings.telegramEnabled && !link?.active ? (
          code ? (
            <div className="flex flex-col gap-3 rounded-lg border border-slate-200 p-4">
              <p className="text-sm text-slate-800">
                Abre el bot de la tienda y pulsa «Iniciar»: el enlace ya lleva tu código. También
                puedes enviarle <code className="font-mono">/start {code.code}</code>.
              </p>
              <div className="flex flex-wrap items-center gap-3">
                <span className="text-sm text-slate-700">Tu código:</span>
                <code
                  className="rounded bg-slate-100 px-2 py-1 font-mono text-base text-slate-900"
                  data-testid="telegram-code"
                >
                  {code.code}
                </code>
                <CopyButton text={code.code} what="el código de Telegram" />
              </div>
              <p className="text-sm text-slate-700">
                Sirve una sola vez y caduca a las {dateTime(code.expiresAt)}.
              </p>
              <div className="flex flex-col gap-2 sm:flex-row">
                <a
                  href={code.url}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="inline-flex min-h-11 items-center justify-center rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
                >
                  Abrir el bot en Telegram
                  <span className="sr-only"> (se abre en otra pestaña)</span>
                </a>
                <Button variant="secondary" onClick={() => void check()} disabled={busy !== null}>
                  {busy === 'check' ? 'Comprobando…' : 'Ya lo envié: comprobar'}
                </Button>
              </div>
            </div>
          ) : (
            <div>
              <Button onClick={() => void startLink()} disabled={busy !== null}>
                {busy === 'link' ? 'Creando el código…' : 'Vincular Telegram'}
              </Button>
            </div>
          )
        ) : null}

        <form onSubmit={(e) => void save(e)} className="flex flex-col gap-3" noValidate>
          <fieldset aria-labelledby={legendId} className="flex flex-col gap-2">
            <legend id={legendId} className="text-sm font-semibold text-slate-900">
              Qué avisos quieres recibir por Telegram
            </legend>
            {settings.available.map((kind) => (
              <label key={kind} className="flex min-h-11 items-center gap-3 text-sm text-slate-800">
                <input
                  type="checkbox"
                  name="telegram"
                  value={kind}
                  className="size-4 accent-brand-600"
                  checked={chosen.includes(kind)}
                  onChange={(e) => toggle(kind, e.target.checked)}
                />
                {NOTIFICATION_KIND_LABELS[kind]}
              </label>
            ))}
          </fieldset>
          {!link?.active ? (
            <p className="text-sm text-slate-600">
              Al vincular Telegram por primera vez activamos todos los avisos; puedes cambiarlos
              cuando quieras.
            </p>
          ) : null}
          <div>
            <Button type="submit" variant="secondary" disabled={busy !== null}>
              {busy === 'save' ? 'Guardando…' : 'Guardar'}
            </Button>
          </div>
        </form>

        <div role="status" aria-live="polite">
          {status ? <Alert tone={status.tone}>{status.text}</Alert> : null}
        </div>
      </div>
    </Section>
  );
}
