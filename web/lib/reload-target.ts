import { useEffect } from 'react';
import { useNavigation } from 'react-router';

// When a page's code fails to load (a deploy replaced the files, a flaky network), React
// Router reloads the page — at the address the person was leaving. We remember where they were
// going while a navigation is under way, and after such a reload go there instead.
const KEY = 'cometa:navigating-to';
/** A remembered target older than this is a leftover, never a navigation under way. */
const FRESH_MS = 15_000;

function remember(target: string): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ to: target, at: Date.now() }));
  } catch {
    // Storage may be disabled; the reload then simply stays where it was.
  }
}

function recall(raw: string | null): string | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as { to?: unknown; at?: unknown };
    if (typeof value.to !== 'string' || typeof value.at !== 'number') return null;
    return Date.now() - value.at <= FRESH_MS ? value.to : null;
  } catch {
    return null;
  }
}

/** Call once, at start-up, before the app renders. */
export function resumeInterruptedNavigation(): void {
  if (typeof window === 'undefined') return;
  let pending: string | null = null;
  try {
    pending = recall(sessionStorage.getItem(KEY));
    sessionStorage.removeItem(KEY);
  } catch {
    return;
  }
  const entry = performance.getEntriesByType('navigation')[0] as
    PerformanceNavigationTiming | undefined;
  const here = window.location.pathname + window.location.search;
  if (
    pending &&
    entry?.type === 'reload' &&
    pending !== here &&
    pending.startsWith('/') &&
    !pending.startsWith('//')
  ) {
    window.location.replace(pending);
  }
}

/**
 * Keeps the target of the navigation under way in sessionStorage. A link click is remembered at
 * once, in the capture phase: the router renders its "loading" state in a transition, and a
 * chunk that fails fast can reload the page before that render (and its effect) happens.
 */
export function useRememberNavigationTarget(): void {
  const navigation = useNavigation();
  const target = navigation.location
    ? navigation.location.pathname + navigation.location.search
    : null;
  useEffect(() => {
    function onClick(event: MouseEvent) {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
        return;
      const link = (event.target as Element | null)?.closest?.('a[href]');
      if (!(link instanceof HTMLAnchorElement) || link.target || link.hasAttribute('download'))
        return;
      const url = new URL(link.href, window.location.href);
      if (url.origin === window.location.origin) remember(url.pathname + url.search);
    }
    document.addEventListener('click', onClick, true);
    return () => document.removeEventListener('click', onClick, true);
  }, []);
  useEffect(() => {
    if (navigation.state === 'loading' && target) remember(target);
    else if (navigation.state === 'idle') {
      try {
        sessionStorage.removeItem(KEY);
      } catch {
        // Storage may be disabled.
      }
    }
  }, [navigation.state, target]);
}
