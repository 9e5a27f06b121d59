import { describe, expect, it } from 'vitest';
import { avatarLetter, displayName } from './display-name';

describe('display name (docs/domain.md §8)', () => {
  it("defaults to 'Usuario'", () => {
    expect(displayName(undefined)).toBe('Usuario');
    expect(displayName(null)).toBe('Usuario');
    expect(displayName('   ')).toBe('Usuario');
  });

  it('keeps names of up to 20 characters and cuts longer ones to 17 + "..."', () => {
    expect(displayName('Ana')).toBe('Ana');
    expect(displayName('a'.repeat(20))).toBe('a'.repeat(20));
    expect(displayName('Maximiliano Alejandro Gutiérrez')).toBe('Maximiliano Aleja...');
    expect(displayName('b'.repeat(21))).toBe(`${'b'.repeat(17)}...`);
  });

  it('counts characters, not UTF-16 units', () => {
    expect(displayName('😀'.repeat(21))).toBe(`${'😀'.repeat(17)}...`);
  });

  it('shows the first letter in uppercase, or "?"', () => {
    expect(avatarLetter('lucía')).toBe('L');
    expect(avatarLetter('óscar')).toBe('Ó');
    expect(avatarLetter('')).toBe('?');
    expect(avatarLetter(null)).toBe('?');
  });
});
