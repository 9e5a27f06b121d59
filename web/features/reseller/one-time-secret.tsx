import { useEffect, useRef } from 'react';
import { Button } from '../../components/ui/button';
import { CopyButton } from '../../components/ui/copy-button';
import { TextField } from '../../components/ui/field';

/**
 * A key or signing secret the server shows only once: read-only (selected, focused on arrival),
 * with «Copiar» and a button to put it away.
 */
export function OneTimeSecret({
  label,
  value,
  hint,
  what,
  done,
  dismissLabel,
  onDismiss,
  testId,
}: {
  label: string;
  value: string;
  hint: string;
  /** Completes «Copiar …» (e.g. "la clave"). */
  what: string;
  done: string;
  dismissLabel: string;
  onDismiss: () => void;
  testId?: string;
}) {
  const box = useRef<HTMLDivElement>(null);

  function select() {
    const input = box.current?.querySelector('input');
    input?.focus();
    input?.select();
  }

  // Arriving here moves the focus to the secret (focus only: the data came with the action).
  useEffect(() => {
    const input = box.current?.querySelector('input');
    input?.focus();
    input?.select();
  }, [value]);

  return (
    <div
      ref={box}
      className="flex min-w-0 flex-col gap-3 rounded-xl border border-amber-300 bg-amber-50 p-3 sm:p-4"
      data-testid={testId}
    >
      <TextField
        label={label}
        value={value}
        readOnly
        spellCheck={false}
        autoComplete="off"
        hint={hint}
        onFocus={(e) => e.currentTarget.select()}
      />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <CopyButton text={value} what={what} done={done} onFailure={select} />
        <Button variant="ghost" onClick={onDismiss}>
          {dismissLabel}
        </Button>
      </div>
    </div>
  );
}
