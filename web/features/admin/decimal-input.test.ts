import { describe, expect, it } from 'vitest';
import { decimalForApi } from './decimal-input';

describe('decimalForApi', () => {
  it('reads a decimal comma', () => {
    expect(decimalForApi('2,90')).toBe('2.90');
    expect(decimalForApi(' 2,9 % ')).toBe('2.9');
    expect(decimalForApi('1.045,50')).toBe('1045.50');
  });
  it('keeps a dot decimal as it is', () => {
    expect(decimalForApi('1045.5')).toBe('1045.5');
    expect(decimalForApi('3')).toBe('3');
    expect(decimalForApi('')).toBe('');
  });
  it('leaves what does not read as typed, for the API to refuse', () => {
    expect(decimalForApi('1,2,3')).toBe('1,2,3');
    expect(decimalForApi('1.04,5')).toBe('1.04,5');
  });
});
