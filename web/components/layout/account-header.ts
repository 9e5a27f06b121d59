import { useEffect, useState } from 'react';

import type * as AccountPartsModule from './account-parts';

type AccountParts = typeof AccountPartsModule;

let loaded: AccountParts | null = null;
let loading: Promise<AccountParts | null> | null = null;

/**
 * Loads the signed-in header (user menu, secondary bar). The protected layout starts it together
 * with the session, so a signed-in page renders its header at once; a failure is logged, and the
 * next call tries again.
 */
export function loadAccountParts(): Promise<AccountParts | null> {
  loading ??= import('./account-parts').then(
    (parts) => (loaded = parts),
    (err: unknown) => {
      loading = null;
      console.warn('No se pudo cargar el menú de la cuenta:', err);
      return null;
    },
  );
  return loading;
}

/** For the signed-in pages, which import the header with them (it renders on the server too). */
export function registerAccountParts(parts: AccountParts): void {
  loaded = parts;
  loading ??= Promise.resolve(parts);
}

/** The signed-in header once loaded (null until then); `needed` starts loading it. */
export function useAccountParts(needed: boolean): AccountParts | null {
  const [parts, setParts] = useState(loaded);
  useEffect(() => {
    if (!needed || parts) return;
    let current = true;
    void loadAccountParts().then((result) => {
      if (current && result) setParts(result);
    });
    return () => {
      current = false;
    };
  }, [needed, parts]);
  return parts ?? loaded;
}
