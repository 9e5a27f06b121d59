import { describe, expect, it } from 'vitest';
import { formatPhone, normalizePhone, phoneProblem } from './phone-number';

describe('phone numbers', () => {
  it('takes the number as people type it', () => {
    expect(normalizePhone(' +34 600 111 222 ')).toBe('+34600111222');
    expect(normalizePhone('+34 (600) 11-12.22')).toBe('+34600111222');
    expect(normalizePhone('0034600111222')).toBe('+34600111222');
  });

  it('asks for the country prefix', () => {
    expect(phoneProblem('+34600111222')).toBeNull();
    expect(phoneProblem('600111222')).toMatch(/prefijo del país/);
    expect(phoneProblem('+0600111222')).toMatch(/prefijo del país/);
    expect(phoneProblem('+34 600')).toMatch(/prefijo del país/);
    expect(phoneProblem('')).toBe('Escribe tu número de teléfono.');
  });

  it('groups a Spanish number for reading', () => {
    expect(formatPhone('+34600111222')).toBe('+34 600 111 222');
    expect(formatPhone('+999123')).toBe('+999123');
  });
});
