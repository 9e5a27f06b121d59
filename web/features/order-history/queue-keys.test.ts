import { describe, expect, it } from 'vitest';
import { movedIndex, orderAge, rowKeyAction } from './queue-keys';

describe('the queue keyboard', () => {
  it('moves with j/k and the arrows, selects with x or space, opens with Enter', () => {
    expect(rowKeyAction('j')).toEqual({ move: 1 });
    expect(rowKeyAction('ArrowDown')).toEqual({ move: 1 });
    expect(rowKeyAction('k')).toEqual({ move: -1 });
    expect(rowKeyAction('ArrowUp')).toEqual({ move: -1 });
    expect(rowKeyAction('x')).toEqual({ toggle: true });
    expect(rowKeyAction(' ')).toEqual({ toggle: true });
    expect(rowKeyAction('Enter')).toEqual({ open: true });
    expect(rowKeyAction('a')).toBeNull();
    expect(rowKeyAction('j', { ctrl: true })).toBeNull();
  });

  it('stays inside the list', () => {
    expect(movedIndex(0, -1, 5)).toBe(0);
    expect(movedIndex(4, 1, 5)).toBe(4);
    expect(movedIndex(2, 1, 5)).toBe(3);
    expect(movedIndex(2, -Infinity, 5)).toBe(0);
    expect(movedIndex(2, Infinity, 5)).toBe(4);
    expect(movedIndex(0, 1, 0)).toBe(0);
  });
});

describe('the age of an order', () => {
  const now = Date.parse('2026-11-24T12:00:00Z');
  it('reads in minutes, hours or days', () => {
    expect(orderAge('2026-11-24T11:59:45Z', now)).toBe('ahora');
    expect(orderAge('2026-11-24T11:55:00Z', now)).toBe('5 min');
    expect(orderAge('2026-11-24T09:00:00Z', now)).toBe('3 h');
    expect(orderAge('2026-11-22T11:00:00Z', now)).toBe('2 d');
    expect(orderAge('2026-11-24T12:05:00Z', now)).toBe('ahora');
  });
});
