import { useEffect, useState } from 'react';
import { useMatches } from 'react-router';

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

/** The route of the signed-in pages: its module registers the header parts as it loads. */
const APP_LAYOUT_ROUTE = 'routes/app/layout';

/**
 * The signed-in header once loaded (null until then); `needed` starts loading it.
 *
 * Only the signed-in pages render it at once: they bring its module with them, in the browser as
 * on the server. Any other page (/verify-email, /login/dos-pasos, the 404 page…) renders without
 * it and loads it after hydration, on the server as in the browser — the server has every module
 * loaded, and a header the browser cannot render yet would not match the HTML it hydrates.
 */
export function useAccountParts(needed: boolean): AccountParts | null {
  const withPage = useMatches().some((match) => match.id === APP_LAYOUT_ROUTE);
  const [parts, setParts] = useState(withPage ? loaded : null);
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
  return parts ?? (withPage ? loaded : null);
}
