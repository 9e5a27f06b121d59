import { useState } from 'react';
import type { AnyOrderDto, OrderDto } from '../../../shared/schemas/orders';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { ApiError } from '../../lib/api';

/** A keyset page of orders (the customer's or the admin's shape). */
type Page<T extends AnyOrderDto> = { items: T[]; nextCursor: string | null };

/**
 * A keyset list of orders: the loader's first page plus the pages «Cargar más» appends. An
 * order already shown (it moved up while paging) is not shown twice.
 */
export function useMorePages<T extends AnyOrderDto = OrderDto>(
  first: Page<T>,
  next: (cursor: string) => Promise<Page<T>>,
) {
  const [extra, setExtra] = useState<T[]>([]);
  const [cursor, setCursor] = useState(first.nextCursor);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const seen = new Set(first.items.map((o) => o.id));
  const items = [...first.items, ...extra.filter((o) => !seen.has(o.id))];

  async function more() {
    if (!cursor) return;
    setLoading(true);
    setError(null);
    try {
      const page = await next(cursor);
      setExtra((e) => [...e, ...page.items]);
      setCursor(page.nextCursor);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'No pudimos cargar más órdenes.');
    } finally {
      setLoading(false);
    }
  }

  return { items, hasMore: cursor !== null, loading, error, more };
}

/** The end of such a list: the error of the last attempt and «Cargar más» while there is more. */
export function LoadMore({ pages }: { pages: ReturnType<typeof useMorePages> }) {
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
