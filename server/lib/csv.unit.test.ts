import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { csvAmount, csvCell, csvDateTime, csvLine, toCsv } from './csv';

describe('csvCell', () => {
  it('leaves plain values as they are', () => {
    expect(csvCell('CMT-ABCD-EFGH-JKMN')).toBe('CMT-ABCD-EFGH-JKMN');
    expect(csvCell('10.00')).toBe('10.00');
    expect(csvCell('')).toBe('');
    expect(csvCell('ana@example.com')).toBe('ana@example.com');
    expect(csvCell('Desbloqueo — Claro')).toBe('Desbloqueo — Claro');
  });

  it('quotes commas, quotes and line breaks, doubling the quotes', () => {
    expect(csvCell('Nota, con "comillas"')).toBe('"Nota, con ""comillas"""');
    expect(csvCell('dos\nlíneas')).toBe('"dos\nlíneas"');
    expect(csvCell('dos\r\nlíneas')).toBe('"dos\r\nlíneas"');
    expect(csvCell('"')).toBe('""""');
  });

  it('defuses every character that starts a formula, and quotes the cell', () => {
    expect(csvCell('=1+1')).toBe(`"'=1+1"`);
    expect(csvCell('+34 600 000 000')).toBe(`"'+34 600 000 000"`);
    expect(csvCell('-2+3')).toBe(`"'-2+3"`);
    expect(csvCell('@SUM(A1:A2)')).toBe(`"'@SUM(A1:A2)"`);
    expect(csvCell('@example.com')).toBe(`"'@example.com"`);
    expect(csvCell('\t=1')).toBe(`"'\t'=1"`);
    expect(csvCell('\r=1')).toBe(`"'\r=1"`);
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('=A1,B1')).toBe(`"'=A1,B1"`);
  });

  it('looks at the first character, and at what follows a ";" or a tab', () => {
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell('imei=359702373699048; modelo=X')).toBe('"imei=359702373699048; modelo=X"');
    expect(csvCell(' =1')).toBe(' =1');
  });
});

describe('csvLine and toCsv', () => {
  it('joins cells with commas', () => {
    expect(csvLine(['a', 'b,c', '=d'])).toBe(`a,"b,c","'=d"`);
    expect(csvLine([])).toBe('');
  });

  it('writes the header and one CRLF-ended line per row', () => {
    expect(
      toCsv(
        ['codigo', 'importe'],
        [
          ['CMT-1', '10.00'],
          ['CMT-2', '=1'],
        ],
      ),
    ).toBe(`codigo,importe\r\nCMT-1,10.00\r\nCMT-2,"'=1"\r\n`);
    expect(toCsv(['codigo'], [])).toBe('codigo\r\n');
  });

  it('keeps a cell with a line break on one record', () => {
    const text = toCsv(['a', 'b'], [['uno\r\ndos', 'tres']]);
    expect(text).toBe('a,b\r\n"uno\r\ndos",tres\r\n');
  });
});

/**
 * How a spreadsheet reads one line with `separator` (a Spanish Excel splits on `;`): quoted
 * cells keep their separators, `""` is a quote.
 */
function splitAs(line: string, separator: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === separator) {
      cells.push(cell);
      cell = '';
    } else cell += ch;
  }
  cells.push(cell);
  return cells;
}

describe('regression: CSV formula injection through ";"', () => {
  it('regression: a cell containing ";=1+1" was written unquoted and a Spanish Excel split it into a formula', () => {
    // Quoted, and what follows the `;` defused: a reader splitting on `;` sees `"` at the
    // start of the first piece only, so the quotes alone would not protect the second.
    expect(csvCell(';=1+1')).toBe(`";'=1+1"`);
    expect(csvCell('imei=359702373699048;=1+1;')).toBe(`"imei=359702373699048;'=1+1;"`);
    const line = csvLine(['123', 'imei=359702373699048;=HYPERLINK("http://x");', '10.00']);
    for (const separator of [',', ';', '\t']) {
      for (const cell of splitAs(line, separator)) expect(cell, separator).not.toMatch(/^[=+\-@]/);
    }
  });

  it('quotes every cell that holds ";" or a tab, or starts with = + - @ (after the apostrophe)', () => {
    expect(csvCell('a;b')).toBe('"a;b"');
    expect(csvCell('a\tb')).toBe('"a\tb"');
    expect(csvCell('=1+1')).toBe(`"'=1+1"`);
    expect(csvCell('+34 600 000 000')).toBe(`"'+34 600 000 000"`);
    expect(csvCell('-2+3')).toBe(`"'-2+3"`);
    expect(csvCell('@SUM(A1:A2)')).toBe(`"'@SUM(A1:A2)"`);
    expect(csvCell('x;"=1')).toBe(`"x;'""=1"`);
    expect(csvCell('plain')).toBe('plain');
  });

  it('whatever the cells, no cell read with ",", ";" or a tab starts a formula', () => {
    const text = fc.string({
      unit: fc.constantFrom('=', '+', '-', '@', ';', ',', '"', '\t', '\r', '\n', 'a', ' ', '1'),
    });
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 5 }), (cells) => {
        const line = csvLine(cells);
        // Read as the file is written: one cell per value.
        if (splitAs(line, ',').length !== cells.length) return false;
        return [',', ';', '\t'].every((separator) =>
          splitAs(line, separator).every((cell) => !/^[=+\-@\t\r]/.test(cell)),
        );
      }),
    );
  });
});

describe('the two forms of an export (issue 20)', () => {
  const excel = { format: 'excel', timeZone: 'America/Bogota' } as const;
  const rfc = { format: 'rfc4180', timeZone: 'America/Bogota' } as const;

  it('the Excel form starts with a byte order mark and separates cells with «;»', () => {
    expect(toCsv(['a', 'b'], [['1,5', 'x;y']], 'excel')).toBe('\uFEFFa;b\r\n"1,5";"x;y"\r\n');
    expect(toCsv(['a', 'b'], [['1,5', 'x;y']], 'rfc4180')).toBe('a,b\r\n"1,5","x;y"\r\n');
  });

  it('keeps the formula quoting in both forms', () => {
    expect(toCsv(['a'], [['=1+1'], ['x;=2']], 'excel')).toBe(`\uFEFFa\r\n"'=1+1"\r\n"x;'=2"\r\n`);
  });

  it('writes dates and amounts for the reader', () => {
    const at = new Date('2026-11-24T12:50:00Z');
    expect(csvDateTime(at, excel)).toBe('24/11/2026 07:50');
    expect(csvDateTime(at, { format: 'excel', timeZone: null })).toBe('24/11/2026 12:50');
    expect(csvDateTime(at, rfc)).toBe('2026-11-24T12:50:00.000Z');
    expect(csvDateTime(null, excel)).toBe('');
    expect(csvAmount('1234.50', excel)).toBe('1234,50');
    expect(csvAmount('1234.50', rfc)).toBe('1234.50');
  });
});
