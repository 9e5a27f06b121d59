import { describe, expect, it } from 'vitest';
import { MAX_QUANTITY } from '../../shared/schemas/catalogue';
import {
  catalogueCollector,
  currencyText,
  identifierText,
  lineText,
  MAX_CATALOGUE_ENTRIES,
  orderCount,
  quantityLimit,
  readBalance,
  readCost,
  readInteger,
} from './values';
import type { RemoteService } from './types';

describe('supplier values read into their range', () => {
  it('regression: an SMM max of "3000000000" overflowed the integer column', () => {
    expect(quantityLimit('3000000000', 'max')).toBe(MAX_QUANTITY);
    expect(quantityLimit(3e9, 'max')).toBe(MAX_QUANTITY);
    expect(quantityLimit('1'.repeat(300), 'max')).toBe(MAX_QUANTITY);
    expect(quantityLimit('3000000000', 'min')).toBe(3_000_000_000);
    expect(quantityLimit('0', 'max')).toBeNull();
    expect(quantityLimit('-5', 'min')).toBeNull();
    expect(quantityLimit('1.5', 'min')).toBeNull();
    expect(quantityLimit(undefined, 'min')).toBeNull();
    expect(quantityLimit(' 50 ', 'min')).toBe(50);
  });

  it('reads integers of any length exactly, capped far beyond any column', () => {
    expect(readInteger('12')).toEqual({ ok: true, value: 12 });
    expect(readInteger('')).toEqual({ ok: false, reason: 'missing' });
    expect(readInteger('1e3')).toEqual({ ok: false, reason: 'unreadable' });
    expect(readInteger('9'.repeat(40))).toEqual({ ok: true, value: 1e15 });
    expect(orderCount('3000000000')).toBe(0x7fffffff);
    expect(orderCount('-50', { negative: true })).toBe(-50);
    expect(orderCount('-50')).toBe(0);
    expect(orderCount('abc')).toBeNull();
  });

  it('regression: an unreadable, zero, negative or absurd cost was used as a cost', () => {
    expect(readCost('1.20')).toEqual({ ok: true, micros: 1_200_000n });
    expect(readCost(0.27819)).toEqual({ ok: true, micros: 278_190n });
    expect(readCost('1,50')).toEqual({ ok: false, problem: 'El costo «1,50» no se puede leer.' });
    expect(readCost('-5')).toEqual({ ok: false, problem: 'El costo «-5» es negativo.' });
    expect(readCost('abc')).toEqual({ ok: false, problem: 'El costo «abc» no se puede leer.' });
    expect(readCost('0')).toEqual({ ok: false, problem: 'El costo es cero.' });
    expect(readCost('0.0000001')).toEqual({ ok: true, micros: 1n });
    expect(readCost('99999999999999')).toEqual({
      ok: false,
      problem: 'El costo «99999999999999» está fuera de rango.',
    });
    expect(readCost(null)).toEqual({ ok: false, problem: 'El costo «null» no se puede leer.' });
    expect(readCost({ a: 1 })).toMatchObject({ ok: false });
  });

  it('regression: a DHRU credit of "99999999999999" overflowed the balance column', () => {
    expect(readBalance('99999999999999')).toBeNull();
    expect(readBalance('$16.41')).toBe(16_410_000n);
    expect(readBalance('-3.50')).toBe(-3_500_000n);
    expect(readBalance('1000000000')).toBe(10n ** 15n);
  });

  it('keeps identifiers exact or refuses them, never shortened', () => {
    expect(identifierText(' 9001 ', 64)).toBe('9001');
    expect(identifierText(42, 64)).toBe('42');
    expect(identifierText('ORD-12/A', 64)).toBe('ORD-12/A');
    expect(identifierText('12\u000034', 64)).toBeNull();
    expect(identifierText('12 34', 64)).toBeNull();
    expect(identifierText('x'.repeat(65), 64)).toBeNull();
    expect(identifierText('\u202e123', 64)).toBeNull();
    expect(identifierText({}, 64)).toBeNull();
    expect(identifierText('', 64)).toBeNull();
  });

  it('makes one-line texts and currencies safe', () => {
    expect(lineText('  Apple\u0000 checks\n\t(USA) ', 100)).toBe('Apple checks (USA)');
    expect(lineText('x'.repeat(50), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(currencyText('usd')).toBe('USD');
    expect(currencyText('US\u0000D')).toBe('USD');
    expect(currencyText('<b>USD</b>')).toBe('');
    expect(currencyText('€')).toBe('€');
  });
});

describe('catalogueCollector', () => {
  function svc(remoteId: string, costProblem: string | null = null): RemoteService {
    return {
      remoteId,
      name: `S ${remoteId}`,
      group: 'G',
      type: 'IMEI',
      unit: 'order',
      costMicros: costProblem ? 0n : 1n,
      costProblem,
      minQuantity: null,
      maxQuantity: null,
      deliveryTime: '',
      info: '',
      fields: [],
      importable: costProblem === null,
      reason: costProblem,
    };
  }

  it('skips repeated ids and reports them with unusable costs and skipped entries', () => {
    const c = catalogueCollector();
    c.add(svc('1'));
    c.add(svc('1'));
    c.add(svc('2', 'El costo es cero.'));
    c.skip(null, 'Sin id', 'El servicio no trae identificador.');
    const { services, issues } = c.result();
    expect(services.map((s) => s.remoteId)).toEqual(['1', '2']);
    expect(issues).toEqual([
      {
        remoteId: '1',
        name: 'S 1',
        reason: 'El identificador está repetido en el catálogo: se usa la primera entrada.',
      },
      { remoteId: '2', name: 'S 2', reason: 'El costo es cero.' },
      { remoteId: null, name: 'Sin id', reason: 'El servicio no trae identificador.' },
    ]);
  });

  it('reads at most MAX_CATALOGUE_ENTRIES services and says how many were left', () => {
    const c = catalogueCollector();
    for (let i = 0; i < MAX_CATALOGUE_ENTRIES + 3; i++) c.add(svc(String(i)));
    const { services, issues } = c.result();
    expect(services).toHaveLength(MAX_CATALOGUE_ENTRIES);
    expect(issues.at(-1)?.reason).toMatch(/3 no se leyeron/);
  });
});
