import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, toCsv } from './csv';

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

  it('defuses every character that starts a formula, also inside quotes', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+34 600 000 000')).toBe("'+34 600 000 000");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1:A2)')).toBe("'@SUM(A1:A2)");
    expect(csvCell('@example.com')).toBe("'@example.com");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('\r=1')).toBe(`"'\r=1"`);
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('=A1,B1')).toBe(`"'=A1,B1"`);
  });

  it('only looks at the first character', () => {
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell('imei=359702373699048; modelo=X')).toBe('imei=359702373699048; modelo=X');
    expect(csvCell(' =1')).toBe(' =1');
  });
});

describe('csvLine and toCsv', () => {
  it('joins cells with commas', () => {
    expect(csvLine(['a', 'b,c', '=d'])).toBe(`a,"b,c",'=d`);
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
    ).toBe("codigo,importe\r\nCMT-1,10.00\r\nCMT-2,'=1\r\n");
    expect(toCsv(['codigo'], [])).toBe('codigo\r\n');
  });

  it('keeps a cell with a line break on one record', () => {
    const text = toCsv(['a', 'b'], [['uno\r\ndos', 'tres']]);
    expect(text).toBe('a,b\r\n"uno\r\ndos",tres\r\n');
  });
});
