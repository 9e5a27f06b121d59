import { useState } from 'react';
import { Alert } from '../components/ui/alert';
import { Button } from '../components/ui/button';
import { ApiError } from './api';

/** A keyset page of any list (orders, movements, payments…). */
type Page<T extends { id: string }> = { items: T[]; nextCursor: string | null };

/**
 * A keyset list: the loader's first page plus the pages «Cargar más» appends. An item already
 * shown (an order that moved up while paging) is not shown twice. `failure` is what a person
 * reads when a page could not be read and the answer says nothing better.
 */
export function useMorePages<T extends { id: string }>(
  first: Page<T>,
  next: (cursor: string) => Promise<Page<T>>,
  failure = 'No pudimos cargar más.',
) {
  const [extra, setExtra] = useState<T[]>([]);
  const [cursor, setCursor] = useState(first.nextCursor);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const seen = new Set(first.items.map((i) => i.id));
  const items = [...first.items, ...extra.filter((i) => !seen.has(i.id))];

  async function more() {
    if (!cursor) return;
    setLoading(true);
    setError(null);
    try {
      const page = await next(cursor);
      setExtra((e) => [...e, ...page.items]);
      setCursor(page.nextCursor);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : failure);
    } finally {
      setLoading(false);
    }
  }

  return { items, hasMore: cursor !== null, loading, error, more };
}

/** The end of such a list: the error of the last attempt and «Cargar más» while there is more. */
export function LoadMore({
  pages,
}: {
  pages: Pick<ReturnType<typeof useMorePages>, 'error' | 'hasMore' | 'loading' | 'more'>;
}) {
  return (
    <>
      {pages.error ? <Alert tone="error">{pages.error}</Alert> : null}
      {pages.hasMore ? (
        <Button
          variant="secondary"
          className="mt-4"
          onClick={() => void pages.more()}
          disabled={pages.loading}
        >
          {pages.loading ? 'Cargando…' : 'Cargar más'}
        </Button>
      ) : null}
    </>
  );
}
