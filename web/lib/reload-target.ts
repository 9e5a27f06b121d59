import { useEffect } from 'react';
import { useNavigation } from 'react-router';

// When a page's code fails to load (a deploy replaced the files, a flaky network), React
// Router reloads the page — at the address the person was leaving. We remember where they were
// going while a navigation is under way, and after such a reload go there instead.
const KEY = 'cometa:navigating-to';

/** Call once, at start-up, before the app renders. */
export function resumeInterruptedNavigation(): void {
  if (typeof window === 'undefined') return;
  let pending: string | null = null;
  try {
    pending = sessionStorage.getItem(KEY);
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

/** Keeps the target of the navigation under way in sessionStorage. */
export function useRememberNavigationTarget(): void {
  const navigation = useNavigation();
  const target = navigation.location
    ? navigation.location.pathname + navigation.location.search
    : null;
  useEffect(() => {
    try {
      if (navigation.state === 'loading' && target) sessionStorage.setItem(KEY, target);
      else if (navigation.state === 'idle') sessionStorage.removeItem(KEY);
    } catch {
      // Storage may be disabled; the reload then simply stays where it was.
    }
  }, [navigation.state, target]);
}
