import { describe, expect, it } from 'vitest';
import { durationText, hasStaffFilters, staffFiltersFrom, staffQuery } from './staff-filters';

describe('staffFiltersFrom', () => {
  it('keeps known values and drops the rest', () => {
    const f = staffFiltersFrom(
      new URLSearchParams(
        'state=answered&category=payment&assignee=me&customer=%20ana%20&order=%23123&q=saldo',
      ),
    );
    expect(f).toEqual({
      state: 'answered',
      category: 'payment',
      assignee: 'me',
      customer: 'ana',
      order: '123',
      q: 'saldo',
    });
    expect(hasStaffFilters(f)).toBe(true);
    const bad = staffFiltersFrom(new URLSearchParams('state=x&category=y&assignee=juan%20p'));
    expect(bad).toEqual({ state: '', category: '', assignee: '', customer: '', order: '', q: '' });
    expect(hasStaffFilters(bad)).toBe(false);
  });

  it('accepts a staff id as assignee', () => {
    const id = 'Xk3vQ9_zr2-Lw8';
    expect(staffFiltersFrom(new URLSearchParams(`assignee=${id}`)).assignee).toBe(id);
  });
});

describe('staffQuery', () => {
  it('writes only the filters set, and the cursor', () => {
    const f = staffFiltersFrom(new URLSearchParams('assignee=none&q=no llega'));
    expect(staffQuery(f)).toBe('assignee=none&q=no+llega');
    expect(staffQuery(f, 'abc')).toBe('assignee=none&q=no+llega&cursor=abc');
  });
});

describe('durationText', () => {
  it('writes minutes, hours and days', () => {
    expect(durationText(null)).toBe('—');
    expect(durationText(30)).toBe('menos de 1 min');
    expect(durationText(45 * 60)).toBe('45 min');
    expect(durationText(3 * 3600)).toBe('3 h');
    expect(durationText(3 * 3600 + 20 * 60)).toBe('3 h 20 min');
    expect(durationText(2 * 86400 + 4 * 3600 + 59)).toBe('2 d 4 h');
    expect(durationText(86400)).toBe('1 d');
  });
});
