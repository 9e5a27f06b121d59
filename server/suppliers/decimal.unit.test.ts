import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { textProblem } from '../../shared/text';
import { formatMicros, htmlToText, parseDecimalMicros } from './decimal';

describe('parseDecimalMicros', () => {
  it('reads supplier amounts as strings', () => {
    expect(parseDecimalMicros('0.27819')).toBe(278_190n);
    expect(parseDecimalMicros('$16.41')).toBe(16_410_000n);
    expect(parseDecimalMicros(' 16.41 ')).toBe(16_410_000n);
    expect(parseDecimalMicros('-2.5')).toBe(-2_500_000n);
    expect(parseDecimalMicros('-$2.5')).toBe(-2_500_000n);
    expect(parseDecimalMicros('$-2.5')).toBe(-2_500_000n);
    expect(parseDecimalMicros('12')).toBe(12_000_000n);
    expect(parseDecimalMicros('12.')).toBe(12_000_000n);
    expect(parseDecimalMicros('.5')).toBe(500_000n);
    expect(parseDecimalMicros('0')).toBe(0n);
    expect(parseDecimalMicros('100.84292')).toBe(100_842_920n);
  });

  it('reads JSON numbers through their shortest decimal form', () => {
    expect(parseDecimalMicros(16.41)).toBe(16_410_000n);
    expect(parseDecimalMicros(0.1)).toBe(100_000n);
    expect(parseDecimalMicros(8)).toBe(8_000_000n);
    expect(parseDecimalMicros(-0.27819)).toBe(-278_190n);
  });

  it('rounds past six decimals away from zero (costs are never understated)', () => {
    expect(parseDecimalMicros('0.00000001')).toBe(1n);
    expect(parseDecimalMicros('1.2345671')).toBe(1_234_568n);
    expect(parseDecimalMicros('1.23456700')).toBe(1_234_567n);
    expect(parseDecimalMicros('-0.0000001')).toBe(-1n);
  });

  it('refuses commas, exponents and anything else', () => {
    for (const bad of [
      '16,41',
      '1,234.56',
      '1e-3',
      '1E3',
      '',
      ' ',
      '$',
      '.',
      '-',
      '--1',
      '+-1',
      '1.2.3',
      'abc',
      '12 USD',
      '0x10',
      'Infinity',
      'NaN',
    ]) {
      expect(parseDecimalMicros(bad), bad).toBeNull();
    }
    for (const bad of [
      Number.NaN,
      Number.POSITIVE_INFINITY,
      1e21,
      1e-7,
      null,
      undefined,
      true,
      {},
      [],
    ]) {
      expect(parseDecimalMicros(bad), JSON.stringify(bad) ?? 'undefined').toBeNull();
    }
  });

  it('never goes through a float for strings', () => {
    expect(parseDecimalMicros('9007199254740993.000001')).toBe(9_007_199_254_740_993_000_001n);
  });
});

describe('formatMicros', () => {
  it('writes 2 to 6 decimals', () => {
    expect(formatMicros(16_410_000n)).toBe('16.41');
    expect(formatMicros(278_190n)).toBe('0.27819');
    expect(formatMicros(1_000_000n)).toBe('1.00');
    expect(formatMicros(1n)).toBe('0.000001');
    expect(formatMicros(0n)).toBe('0.00');
    expect(formatMicros(-2_500_000n)).toBe('-2.50');
    expect(formatMicros(1_234_500_000n)).toBe('1234.50');
  });

  it('round-trips with parseDecimalMicros', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }), (micros) => {
        expect(parseDecimalMicros(formatMicros(micros))).toBe(micros);
      }),
    );
  });
});

describe('htmlToText', () => {
  it('turns breaks and block ends into lines and drops other tags', () => {
    expect(htmlToText('Unlock code: 12345678<br>Carrier: AT&amp;T')).toBe(
      'Unlock code: 12345678\nCarrier: AT&T',
    );
    expect(htmlToText('<p>One</p><p>Two</p>')).toBe('One\nTwo');
    expect(htmlToText('<ul><li>a</li><li>b</li></ul>')).toBe('a\nb');
    // Only the end of a block breaks the line.
    expect(htmlToText('a<br/>b<BR />c<div>d</div>e')).toBe('a\nb\ncd\ne');
    expect(htmlToText('<b>FMI</b> <span style="color:red">ON</span>')).toBe('FMI ON');
  });

  it('decodes entities once', () => {
    expect(htmlToText('&lt;b&gt; &quot;x&quot; &#39;y&#39; &apos;z&apos;')).toBe("\"x\" 'y' 'z'");
    expect(htmlToText('5 &lt; 6 &amp;&amp; 7 &gt; 3')).toBe('5 < 6 && 7 > 3');
    expect(htmlToText('&amp;lt;')).toBe('&lt;');
    expect(htmlToText('&#65;&#x42;&#X43;')).toBe('ABC');
    expect(htmlToText('a&nbsp;b')).toBe('a b');
    expect(htmlToText('Tiempo de entrega: 1&ndash;3 d&iacute;as')).toBe(
      'Tiempo de entrega: 1–3 días',
    );
    expect(htmlToText('&unknown; &#0; &#xD800;')).toBe('&unknown; \ufffd \ufffd');
  });

  it('regression: markup written as entities was decoded after the tags were stripped, and stored as markup', () => {
    expect(htmlToText('&lt;script&gt;alert(1)&lt;/script&gt;Unlock')).toBe('Unlock');
    expect(htmlToText('&lt;img src=x onerror=alert(1)&gt;Name')).toBe('Name');
    expect(htmlToText('&#60;svg onload=alert(1)&#62;x')).toBe('x');
    expect(htmlToText('&lt;a href="javascript:alert(1)"&gt;link&lt;/a&gt;')).toBe('link');
  });

  it('regression: NUL and other controls in supplier text reached the database', () => {
    expect(htmlToText('Code: 1234\u0000\u0007 5678<br>Carrier:\u202e AT&amp;T')).toBe(
      'Code: 1234 5678\nCarrier: AT&T',
    );
    expect(htmlToText('a&#7;b&#x1b;c\ud800d')).toBe('abc\ufffdd');
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (input) => {
        const out = htmlToText(input);
        expect(textProblem(out)).toBeNull();
      }),
    );
  });

  it('trims lines and collapses blank runs', () => {
    expect(htmlToText('  <p> a </p>\n\n\n\n<p>  b  </p>  ')).toBe('a\n\nb');
    expect(htmlToText('a<br><br><br><br>b')).toBe('a\n\nb');
    expect(htmlToText('\r\n x \r\n')).toBe('x');
  });

  it('drops scripts, styles and comments with their content', () => {
    expect(htmlToText('a<script>alert(1)</script>b<style>p{}</style>c<!-- note -->d')).toBe('abcd');
  });

  it('never leaves a tag behind', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const out = htmlToText(`<p>${text}</p><img src=x onerror=alert(1)>`);
        expect(out).not.toMatch(/<img|<p>/);
      }),
    );
    expect(htmlToText('safe <img src=x onerror="alert(1)"')).toBe('safe');
  });
});
