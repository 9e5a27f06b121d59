import { useEffect, useId, useRef, useState } from 'react';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { LoadedList } from '../../components/ui/section';
import type { Loaded } from '../../lib/loaded';
import { JSON_POST, useSettled } from './hooks';
import { SessionList } from './session-list';
import {
  FETCHER_KEYS,
  type SecurityActionResult,
  type SecurityPayload,
  type Session,
} from './types';

type Notice = { tone: 'success' | 'error'; text: string; at: number };

/** «Sesiones activas»: every device signed in, each closable, or all but this one at once. */
export function ActiveSessions({ sessions }: { sessions: Loaded<Session[]> }) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const settle = (result: SecurityActionResult) => {
    setNotice({
      tone: result.ok ? 'success' : 'error',
      text: (result.ok ? result.message : result.formError) ?? '',
      at: (notice?.at ?? 0) + 1,
    });
  };
  useSettled<SecurityActionResult>(FETCHER_KEYS.session, settle);
  useSettled<SecurityActionResult>(FETCHER_KEYS.revokeOthers, settle);

  // The closed session's row is gone with its button: the focus goes to the heading.
  useEffect(() => {
    if (notice?.tone === 'success') heading.current?.focus();
  }, [notice]);

  const others = sessions.ok ? sessions.data.filter((s) => !s.current).length : 0;
  return (
    <section aria-labelledby={headingId} className="flex min-w-0 flex-col gap-3">
      <h3
        id={headingId}
        ref={heading}
        tabIndex={-1}
        className="text-base font-semibold text-slate-900 focus:outline-none"
      >
        Sesiones activas
      </h3>
      <p className="text-sm text-slate-600">
        Los dispositivos donde tu cuenta está abierta. Si no reconoces alguno, cierra su sesión y
        cambia tu contraseña.
      </p>
      <div aria-live="polite">
        {notice?.tone === 'success' ? <Alert tone="success">{notice.text}</Alert> : null}
      </div>
      {notice?.tone === 'error' ? <Alert tone="error">{notice.text}</Alert> : null}
      <LoadedList value={sessions} what="tus sesiones">
        {(items) => <SessionList sessions={items} revocable />}
      </LoadedList>
      {others > 0 ? <RevokeOthers count={others} onStart={() => setNotice(null)} /> : null}
    </section>
  );
}

function RevokeOthers({ count, onStart }: { count: number; onStart: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const fetcher = useSettled<SecurityActionResult>(FETCHER_KEYS.revokeOthers, () =>
    setConfirming(false),
  );
  const [toggled, setToggled] = useState(false);
  const questionId = useId();
  const box = useRef<HTMLDivElement>(null);
  const busy = fetcher.state !== 'idle';

  // Opening the confirmation takes the focus to its question; closing it, back to the button.
  useEffect(() => {
    if (!toggled) return;
    box.current?.querySelector<HTMLElement>(confirming ? '[role="group"]' : 'button')?.focus();
  }, [confirming, toggled]);

  function toggle(open: boolean) {
    setToggled(true);
    setConfirming(open);
  }

  function revoke() {
    if (busy) return;
    onStart();
    const payload: SecurityPayload = { intent: 'sessions-revoke-others' };
    void fetcher.submit(payload, JSON_POST);
  }

  return (
    <div ref={box}>
      {confirming ? (
        <div
          role="group"
          aria-labelledby={questionId}
          tabIndex={-1}
          className="flex flex-col gap-3 rounded-lg border border-red-200 bg-red-50 p-3 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-600"
        >
          <p id={questionId} className="text-sm text-red-900">
            ¿Cerrar {count === 1 ? 'la otra sesión' : `las otras ${count} sesiones`}? Quien use esos
            dispositivos tendrá que volver a iniciar sesión. Esta sesión sigue abierta.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button variant="danger" disabled={busy} onClick={revoke}>
              {busy ? 'Cerrando…' : 'Sí, cerrar las demás'}
            </Button>
            <Button variant="secondary" disabled={busy} onClick={() => toggle(false)}>
              No, dejarlas
            </Button>
          </div>
        </div>
      ) : (
        <Button variant="secondary" onClick={() => toggle(true)}>
          Cerrar todas las demás
        </Button>
      )}
    </div>
  );
}
