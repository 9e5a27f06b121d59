import { useState } from 'react';
import { Button } from './button';

/** Puts `text` on the clipboard; false when the browser has none or refuses (never throws). */
export async function copyToClipboard(text: string): Promise<boolean> {
  try {
    if (typeof navigator === 'undefined' || !navigator.clipboard) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * «Copiar», and next to it whether it worked ("Copiado", or how to copy by hand). Without a
 * clipboard (an insecure page, a refusing browser) the page keeps working: `onFailure` may
 * select the text for the person to copy.
 */
export function CopyButton({
  text,
  what,
  done = 'Copiado',
  onFailure,
}: {
  text: string;
  /** Completes the button's accessible name: "Copiar <what>" (unique on the page). */
  what: string;
  /** What the status line says once copied ("Copiada" for a key). */
  done?: string;
  onFailure?: () => void;
}) {
  const [state, setState] = useState<{ text: string; ok: boolean } | null>(null);
  // A new text is not copied yet.
  const outcome = state?.text === text ? state.ok : null;

  async function copy() {
    const ok = await copyToClipboard(text);
    setState({ text, ok });
    if (!ok) onFailure?.();
  }

  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <Button variant="secondary" onClick={() => void copy()}>
        Copiar<span className="sr-only"> {what}</span>
      </Button>
      <span role="status" className="text-sm text-slate-700">
        {outcome === true
          ? done
          : outcome === false
            ? 'No se pudo copiar: selecciona el texto y cópialo a mano.'
            : ''}
      </span>
    </div>
  );
}
