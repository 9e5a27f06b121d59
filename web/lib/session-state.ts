import { useSyncExternalStore } from 'react';
import type { Me } from '../../shared/schemas/me';

// Who is signed in, as the header and the pages read it. Only the state lives here, with no
// network code: the header (on every page, the public ones too) reads it, and web/lib/session.ts
// — which asks the server, renews and ends sessions — is loaded once the page runs, so the
// prerendered pages do not ship the API client.

export type AuthUser = {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  role: string;
  /** TOTP is on (an admin without it reaches only /activar-dos-pasos). */
  twoFactorEnabled: boolean;
};

export type SessionState =
  | { status: 'loading'; retrying: boolean }
  | { status: 'anonymous'; expired: boolean }
  | { status: 'authenticated'; user: AuthUser; expiresAt: number; me: Me | null };

let state: SessionState = { status: 'loading', retrying: false };
const listeners = new Set<() => void>();

export function getSessionState(): SessionState {
  return state;
}

/** For web/lib/session.ts: the new state, announced to every reader. */
export function setSessionState(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const serverState: SessionState = { status: 'loading', retrying: false };

export function useSession(): SessionState {
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => serverState,
  );
}
