import { useEffect, useRef, useState } from 'react';
import { useFetcher } from 'react-router';
import type { ResellerActionResult } from './types';

export const JSON_POST = { method: 'post', encType: 'application/json' } as const;

/**
 * Watches the fetcher of `key` and calls `onSettled` once per answer, during render (the React
 * way to adjust state to a change, without an effect).
 */
export function useSettled(key: string, onSettled: (result: ResellerActionResult) => void) {
  const fetcher = useFetcher<ResellerActionResult>({ key });
  const [seen, setSeen] = useState(fetcher.data);
  if (fetcher.state === 'idle' && fetcher.data !== seen) {
    setSeen(fetcher.data);
    if (fetcher.data) onSettled(fetcher.data);
  }
  return fetcher;
}

/** Moves the focus to the first input marked invalid (focus only: no data here). */
export function useFocusInvalid(errors: Record<string, string>) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (Object.keys(errors).length > 0)
      form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [errors]);
  return form;
}

/**
 * Focuses the element when `signal` changes to something truthy (after an action removed the
 * control that had the focus). Focus only: no data here.
 */
export function useFocusOn<T extends HTMLElement>(signal: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    if (signal) ref.current?.focus();
  }, [signal]);
  return ref;
}
