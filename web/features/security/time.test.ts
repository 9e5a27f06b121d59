import { describe, expect, it } from 'vitest';
import { relativeTime } from './time';

const NOW = Date.parse('2026-03-12T14:00:00Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString();

describe('relativeTime', () => {
  it('calls the last minute "ahora mismo", in the past or slightly ahead', () => {
    expect(relativeTime(ago(0), NOW)).toBe('ahora mismo');
    expect(relativeTime(ago(59), NOW)).toBe('ahora mismo');
    expect(relativeTime(ago(-20), NOW)).toBe('ahora mismo');
  });

  it('names the largest whole unit, in Spanish', () => {
    expect(relativeTime(ago(5 * 60), NOW)).toBe('hace 5 minutos');
    expect(relativeTime(ago(3 * 3600 + 59 * 60), NOW)).toBe('hace 3 horas');
    expect(relativeTime(ago(24 * 3600), NOW)).toBe('ayer');
    expect(relativeTime(ago(3 * 24 * 3600), NOW)).toBe('hace 3 días');
    expect(relativeTime(ago(15 * 24 * 3600), NOW)).toBe('hace 2 semanas');
    expect(relativeTime(ago(400 * 24 * 3600), NOW)).toBe('el año pasado');
  });

  it('says nothing for a date it cannot read', () => {
    expect(relativeTime('not a date', NOW)).toBe('');
  });
});
