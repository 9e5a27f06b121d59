import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * False while the page renders on the server and while the browser hydrates it, true afterwards:
 * for text only the browser can write identically each time (a time relative to the device's
 * clock), which would otherwise differ from the server's HTML (React #418).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
