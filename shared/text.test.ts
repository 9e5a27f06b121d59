import { describe, expect, it } from 'vitest';
import { findTextProblem, textProblem, textProblemMessage } from './text';

describe('textProblem', () => {
  it('accepts ordinary Spanish text, emoji and multi-line text', () => {
    expect(textProblem('José Ñúñez — «hola» 😀')).toBeNull();
    expect(textProblem('línea 1\nlínea 2\r\n\tfin')).toBeNull();
  });

  it('regression: NUL bytes and lone surrogates reached PostgreSQL (500)', () => {
    expect(textProblem('a\u0000b')).toBe('control');
    expect(textProblem('a\ud800b')).toBe('unicode');
    expect(textProblem('\udfff')).toBe('unicode');
    expect(textProblem('ok \ud83d\ude00')).toBeNull();
  });

  it('refuses other controls, DEL, C1 and noncharacters', () => {
    for (const ch of ['\u0001', '\u001b', '\u007f', '\u0085', '\u009f'])
      expect(textProblem(`x${ch}`)).toBe('control');
    expect(textProblem('\uffff')).toBe('unicode');
  });

  it('regression: the right-to-left override made "Juan\\u202egnp.exe" show as "Juanexe.png"', () => {
    expect(textProblem('Juan\u202egnp.exe')).toBe('bidi');
    expect(textProblem('\u2066x\u2069')).toBe('bidi');
  });

  it('single-line text refuses tabs and line breaks', () => {
    expect(textProblem('a\tb', { singleLine: true })).toBe('lineBreak');
    expect(textProblem('a\nb', { singleLine: true })).toBe('lineBreak');
    expect(textProblem('a\u2028b', { singleLine: true })).toBe('lineBreak');
    expect(textProblemMessage('a b', { singleLine: true })).toBeNull();
  });
});

describe('findTextProblem', () => {
  it('names the path of the first bad string, keys included', () => {
    expect(findTextProblem({ fields: { imei: 'x\u0000' } })?.path).toBe('fields.imei');
    expect(findTextProblem({ lines: ['ok', 'bad\ud800'] })?.path).toBe('lines.1');
    expect(findTextProblem({ ['k\u0000']: 1 })?.path).toBe('(clave)');
    expect(findTextProblem({ a: 1, b: [true, null, 'fine'] })).toBeNull();
  });

  it('stops at a hostile nesting depth instead of recursing without end', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 200; i++) deep = [deep];
    expect(findTextProblem(deep)?.message).toMatch(/anidados/);
  });
});
