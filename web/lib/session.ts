import type { Me } from '../../shared/schemas/me';
import { ApiError, api, checkAnswer, onUnauthorized } from './api';
import { backoffDelay, isExpired, sessionSchedule } from './session-timing';
import {
  getSessionState,
  onAdopt,
  setSessionState,
  type AuthUser,
  type SessionState,
} from './session-state';

// The session store. Its state lives in ./session-state (read by the header on every page); this
// module asks the server, renews and ends sessions. The public pages load it after they start,
// and only a signed-in answer brings in the schemas (and zod) to read it.
export { getSessionState, useSession, type AuthUser, type SessionState } from './session-state';

// Here rather than in ./session-state: the public pages' core chunk carries that module.
export { mustEnrolTwoFactor, TWO_FACTOR_SETUP_PATH } from './two-factor-gate';

/** The schemas of the signed-in answers, loaded when there is a session to read. */
const schemas = () =>
  Promise.all([import('../../shared/schemas/auth'), import('../../shared/schemas/me')]).then(
    ([auth, me]) => ({ AuthSessionSchema: auth.AuthSessionSchema, MeSchema: me.MeSchema }),
  );

let inflight: Promise<SessionState> | null = null;
let firstState: Promise<SessionState> | null = null;
let resolveFirst: ((s: SessionState) => void) | null = null;
let renewTimer: ReturnType<typeof setTimeout> | undefined;
let expireTimer: ReturnType<typeof setTimeout> | undefined;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let retryAttempt = 0;
let meLoadedAt = 0;

function setState(next: SessionState) {
  if (next.status !== 'loading' && resolveFirst) {
    resolveFirst(next);
    resolveFirst = null;
  }
  setSessionState(next);
}

function clearTimers() {
  clearTimeout(renewTimer);
  clearTimeout(expireTimer);
  clearTimeout(retryTimer);
}

function schedule(expiresAt: number) {
  clearTimeout(renewTimer);
  clearTimeout(expireTimer);
  const { renewInMs, expireInMs } = sessionSchedule(expiresAt, Date.now());
  // Timers past ~24 days overflow setTimeout; re-plan instead of firing at once.
  const cap = 2 ** 31 - 1;
  renewTimer = setTimeout(() => void refresh(), Math.min(renewInMs, cap));
  expireTimer = setTimeout(
    () => {
      const state = getSessionState();
      if (state.status !== 'authenticated') return;
      if (!isExpired(state.expiresAt, Date.now())) schedule(state.expiresAt);
      // This device's clock says it has ended: the server decides (a renewal may be on its way,
      // and a clock that jumped ahead must not end a session the server still holds).
      else void refresh();
    },
    Math.min(expireInMs, cap),
  );
}

/**
 * Reads the user row the header shows. A failure is logged and leaves `me` null
 * (docs/domain.md §8).
 */
async function loadMe(user: AuthUser): Promise<Me | null> {
  if (!user.emailVerified) return null;
  meLoadedAt = Date.now();
  try {
    const { MeSchema } = await schemas();
    return await api.get('/api/me', MeSchema);
  } catch (err) {
    console.warn('No se pudo leer el usuario (/api/me):', err instanceof Error ? err.message : err);
    return null;
  }
}

async function fetchSession(): Promise<SessionState> {
  let clockOffset = 0;
  const answer = await api.answer('/api/auth/get-session', {
    onResponse: (response) => {
      // The expiry is in the server's clock; a device whose clock is off must not end (or
      // keep) sessions early. Convert it to this device's clock with the response's Date.
      const serverNow = Date.parse(response.headers.get('date') ?? '');
      if (Number.isFinite(serverNow)) clockOffset = serverNow - Date.now();
    },
  });
  // Signed out: `null`, read without loading the schemas.
  if (answer.body === null) return { status: 'anonymous', expired: false };
  const { AuthSessionSchema } = await schemas();
  const data = await checkAnswer('/api/auth/get-session', AuthSessionSchema, answer);
  if (!data) return { status: 'anonymous', expired: false };
  // Date headers have one-second precision: only correct offsets larger than that.
  const offset = Math.abs(clockOffset) > 2_000 ? clockOffset : 0;
  const expiresAt = new Date(data.session.expiresAt).getTime() - offset;
  if (isExpired(expiresAt, Date.now())) return { status: 'anonymous', expired: true };
  const user: AuthUser = {
    id: data.user.id,
    name: data.user.name,
    email: data.user.email,
    emailVerified: data.user.emailVerified,
    role: data.user.role ?? 'customer',
    // Added to the user by Better Auth's two-factor plugin (not in AuthSessionSchema's list).
    twoFactorEnabled: data.user.twoFactorEnabled === true,
  };
  return { status: 'authenticated', user, expiresAt, me: await loadMe(user) };
}

/** Asks the server for the session (renewing it when due). Network errors retry with back-off. */
export function refresh(): Promise<SessionState> {
  const wasSignedIn = getSessionState().status === 'authenticated';
  inflight ??= fetchSession()
    .then((fetched) => {
      // A session that disappears while the person was signed in has ended (expired, revoked):
      // the protected pages send them to /login and back afterwards.
      const next: SessionState =
        wasSignedIn && fetched.status === 'anonymous'
          ? { status: 'anonymous', expired: true }
          : fetched;
      retryAttempt = 0;
      clearTimeout(retryTimer);
      setState(next);
      if (next.status === 'authenticated') schedule(next.expiresAt);
      else clearTimers();
      return next;
    })
    .catch((err: unknown) => {
      if (err instanceof ApiError && err.isNetwork) {
        const delay = backoffDelay(retryAttempt);
        retryAttempt += 1;
        clearTimeout(retryTimer);
        retryTimer = setTimeout(() => void refresh(), delay);
        if (getSessionState().status === 'loading') setState({ status: 'loading', retrying: true });
        return getSessionState();
      }
      console.error('No se pudo leer la sesión:', err);
      const next: SessionState = { status: 'anonymous', expired: false };
      setState(next);
      return next;
    })
    .finally(() => {
      inflight = null;
    });
  return inflight;
}

/** Resolves with the first known (non-loading) session state. */
export function ready(): Promise<SessionState> {
  const state = getSessionState();
  if (state.status !== 'loading') return Promise.resolve(state);
  firstState ??= new Promise((resolve) => {
    resolveFirst = resolve;
  });
  if (!inflight) void refresh();
  return firstState;
}

/** Reloads the header data (name, Saldo) after a change; `maxAgeMs` skips a fresh enough copy. */
export async function reloadMe(options: { maxAgeMs?: number } = {}): Promise<void> {
  const before = getSessionState();
  if (before.status !== 'authenticated') return;
  if (options.maxAgeMs !== undefined && Date.now() - meLoadedAt < options.maxAgeMs) return;
  meLoadedAt = Date.now();
  const me = await loadMe(before.user);
  const state = getSessionState();
  if (state.status === 'authenticated') {
    setState({ ...state, me, user: me ? { ...state.user, name: me.name } : state.user });
  }
}

export function endSession(expired: boolean) {
  clearTimers();
  setState({ status: 'anonymous', expired });
}

if (typeof window !== 'undefined') {
  // A server-rendered page arrives with its session: renew and end it on time from there.
  onAdopt((adopted) => {
    meLoadedAt = Date.now();
    schedule(adopted.expiresAt);
  });
  const current = getSessionState();
  if (current.status === 'authenticated') {
    meLoadedAt = Date.now();
    schedule(current.expiresAt);
  }
  onUnauthorized(() => {
    if (getSessionState().status === 'authenticated') endSession(true);
  });
  // Coming back to a tab after a long sleep: timers may not have fired.
  document.addEventListener('visibilitychange', () => {
    const state = getSessionState();
    if (
      document.visibilityState === 'visible' &&
      state.status === 'authenticated' &&
      isExpired(state.expiresAt, Date.now())
    ) {
      // Asked, not assumed: the server ends it when it has really expired.
      void refresh();
    }
  });
}
