import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';

/**
 * The action of a form on a prerendered page whose query matters (/login?next=…). The HTML was
 * rendered at build time without a query, and React keeps the server's attribute when it
 * hydrates; so the query is added once the page runs, and a submission keeps it.
 */
export function useActionWithQuery(): string {
  const location = useLocation();
  const [running, setRunning] = useState(false);
  useEffect(() => setRunning(true), []);
  return running ? `${location.pathname}${location.search}` : location.pathname;
}
