import { describe, expect, it } from 'vitest';
import { withTimeZone } from './csv-link';

describe('CSV links carry the reader’s time zone (issue 20)', () => {
  it('adds tz to the query', () => {
    expect(withTimeZone('/api/orders/export.csv', 'America/Mexico_City')).toBe(
      '/api/orders/export.csv?tz=America%2FMexico_City',
    );
    expect(withTimeZone('/api/orders/export.csv?status=pending', 'Europe/Madrid')).toBe(
      '/api/orders/export.csv?status=pending&tz=Europe%2FMadrid',
    );
    expect(withTimeZone('/x.csv', undefined)).toBe('/x.csv');
  });
});
