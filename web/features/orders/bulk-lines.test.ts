import { describe, expect, it } from 'vitest';
import type { ServiceField } from '../../../shared/schemas/catalogue';
import type { BulkLineResult } from '../../../shared/schemas/orders';
import { boxHint, checkBox, refusedLines } from './bulk-lines';

const IMEI: ServiceField = { key: 'imei', label: 'IMEI', type: 'imei', required: true };
const A = '359702373699048';
const B = '353322110000669';

function placed(line: number, imei: string): BulkLineResult {
  return { line, imei, ok: true, order: {} as never };
}
function refused(line: number, imei: string, message: string): BulkLineResult {
  return { line, imei, ok: false, code: 'VALIDATION_FAILED', message };
}

describe('bulk order box: lines are checked as typed and only valid ones are totalled (issue 20)', () => {
  it('checks each line as the server will, IMEIs as people write them included', () => {
    const box = checkBox(IMEI, `35-970237-369904-8\n\n  12345  \n35 332211 000066 9\n${A}\n`);
    expect(box.lines).toEqual(['35-970237-369904-8', '12345', '35 332211 000066 9', A]);
    expect(box.checked).toEqual([
      { line: 1, text: '35-970237-369904-8', ok: true, imei: A },
      { line: 2, text: '12345', ok: false, message: 'El IMEI debe tener 15 dígitos.' },
      { line: 3, text: '35 332211 000066 9', ok: true, imei: B },
      { line: 4, text: A, ok: false, message: 'Este IMEI está repetido en la lista.' },
    ]);
    expect(box.valid).toBe(2);
    expect(box.invalid).toBe(2);
  });

  it('says how many lines are valid, with real plurals', () => {
    expect(boxHint(checkBox(IMEI, ''))).toBe(
      'Pega un IMEI por línea. Las líneas no válidas se rechazan sin cargo.',
    );
    expect(boxHint(checkBox(IMEI, A))).toBe('1 línea, todas válidas.');
    expect(boxHint(checkBox(IMEI, `${A}\nabc`))).toBe(
      '2 líneas: 1 válida, 1 con error (no se cobran).',
    );
    expect(boxHint(checkBox(IMEI, `${A}\n${B}\nabc\n1`))).toBe(
      '4 líneas: 2 válidas, 2 con errores (no se cobran).',
    );
  });
});

describe('bulk order box: after an order it kept the lines already ordered (issue 20)', () => {
  it('keeps only the refused lines, as they were typed', () => {
    const sent = ['35-970237-369904-8', '12345', '35 332211 000066 9'];
    const results = [
      placed(1, A),
      refused(2, '12345', 'El IMEI debe tener 15 dígitos.'),
      refused(3, B, 'Tu saldo no alcanza para este IMEI.'),
    ];
    expect(refusedLines(sent, results)).toBe('12345\n35 332211 000066 9');
  });

  it('empties the box when every line became an order', () => {
    expect(refusedLines([A, B], [placed(1, A), placed(2, B)])).toBe('');
  });
});
