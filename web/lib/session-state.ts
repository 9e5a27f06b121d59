import { createContext, useContext, useSyncExternalStore } from 'react';
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

/**
 * The session a server-rendered page was rendered with (the root loader's answer): what every
 * reader sees on the server and while the page hydrates, so both render the same HTML. Null on
 * prerendered pages and for visitors without a session cookie: the session is then read in the
 * browser, as before.
 */
export type SessionSnapshot = {
  user: AuthUser;
  /** Session expiry, in the server's clock. */
  expiresAt: number;
  me: Me | null;
  /** The server's clock when the page was rendered (corrects a device whose clock is off). */
  serverNow: number;
};

export const SessionSnapshotContext = createContext<SessionSnapshot | null>(null);

const loadingState: SessionState = { status: 'loading', retrying: false };
const snapshotStates = new WeakMap<SessionSnapshot, SessionState>();

function stateOf(snapshot: SessionSnapshot | null): SessionState {
  if (!snapshot) return loadingState;
  let known = snapshotStates.get(snapshot);
  if (!known) {
    known = {
      status: 'authenticated',
      user: snapshot.user,
      expiresAt: snapshot.expiresAt,
      me: snapshot.me,
    };
    snapshotStates.set(snapshot, known);
  }
  return known;
}

type AdoptListener = (state: SessionState & { status: 'authenticated' }) => void;
const adoptListeners = new Set<AdoptListener>();

/** For web/lib/session.ts: told when a server-rendered session is adopted (to plan renewals). */
export function onAdopt(listener: AdoptListener): void {
  adoptListeners.add(listener);
}

/**
 * In the browser, before the page hydrates: the server-rendered session becomes the state (only
 * while nothing is known yet), with its expiry moved to this device's clock.
 */
export function adoptSession(snapshot: SessionSnapshot | null): void {
  if (!snapshot || typeof window === 'undefined' || state.status !== 'loading') return;
  const drift = snapshot.serverNow - Date.now();
  // Date headers and render time make a second or two of difference: only correct beyond that.
  const expiresAt = Math.abs(drift) > 2_000 ? snapshot.expiresAt - drift : snapshot.expiresAt;
  const next = {
    status: 'authenticated' as const,
    user: snapshot.user,
    me: snapshot.me,
    expiresAt,
  };
  state = next;
  for (const listener of adoptListeners) listener(next);
}

export function useSession(): SessionState {
  const snapshot = useContext(SessionSnapshotContext);
  return useSyncExternalStore(
    subscribe,
    () => (typeof window === 'undefined' ? stateOf(snapshot) : state),
    () => stateOf(snapshot),
  );
}
