import { useState } from 'react';
import { useFetcher } from 'react-router';

export const JSON_POST = { method: 'post', encType: 'application/json' } as const;

/**
 * Watches the fetcher of `key` and calls `onSettled` once per answer, during render (the React
 * way to adjust state to a change, without an effect).
 */
export function useSettled<T>(key: string, onSettled: (result: T) => void) {
  const fetcher = useFetcher<T>({ key });
  const [seen, setSeen] = useState(fetcher.data);
  if (fetcher.state === 'idle' && fetcher.data !== seen) {
    setSeen(fetcher.data);
    if (fetcher.data) onSettled(fetcher.data as T);
  }
  return fetcher;
}
