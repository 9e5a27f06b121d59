import { describe, expect, it } from 'vitest';
import {
  STOCK_FILE_MAX_BYTES,
  STOCK_ITEM_MAX_LENGTH,
  STOCK_MAX_LINES,
  addedSentence,
  checkStockText,
  stockFileProblem,
  stockLines,
  stockTextProblem,
  stockTextSummary,
} from './stock-upload';

describe('stock lines', () => {
  it('numbers lines as the server does: no BOM, one final line break is not a line', () => {
    expect(stockLines('')).toEqual([]);
    expect(stockLines('\n')).toEqual([]);
    expect(stockLines('\uFEFF')).toEqual([]);
    expect(stockLines('A')).toEqual(['A']);
    expect(stockLines('\uFEFFA\nB\n')).toEqual(['A', 'B']);
    expect(stockLines('A\r\nB\r\n')).toEqual(['A', 'B']);
    // A blank line in the middle, or two line breaks at the end, is an empty line.
    expect(stockLines('A\n\nB')).toEqual(['A', '', 'B']);
    expect(stockLines('A\n\n')).toEqual(['A', '']);
  });

  it('counts characters, not UTF-16 units: 500 emoji are one item of 500 characters', () => {
    expect(checkStockText('😀'.repeat(STOCK_ITEM_MAX_LENGTH)).items).toBe(1);
    expect(checkStockText('😀'.repeat(STOCK_ITEM_MAX_LENGTH + 1)).refused).toEqual([
      { line: 1, problem: 'too-long' },
    ]);
  });

  it('counts the items and numbers the empty, repeated and too long lines from 1', () => {
    const long = 'x'.repeat(STOCK_ITEM_MAX_LENGTH + 1);
    const checked = checkStockText(`KEY-1\n\nuser@mail.com:pa55\n KEY-1 \n${long}\nKEY-2\n`);
    expect(checked.lines).toBe(6);
    expect(checked.items).toBe(3);
    expect(checked.refused).toEqual([
      { line: 2, problem: 'empty' },
      { line: 4, problem: 'duplicate' },
      { line: 5, problem: 'too-long' },
    ]);
    expect(stockTextSummary(checked)).toBe(
      '6 líneas: 3 artículos (no se agregan: 1 vacía, 1 repetida, 1 demasiado larga).',
    );
    expect(stockTextProblem(checked)).toBeNull();
  });

  it('takes an item of exactly the maximum length, and a line of spaces as empty', () => {
    const checked = checkStockText(`${'y'.repeat(STOCK_ITEM_MAX_LENGTH)}\n   \n`);
    expect(checked).toEqual({ lines: 2, items: 1, refused: [{ line: 2, problem: 'empty' }] });
    expect(stockTextSummary(checked)).toBe('2 líneas: 1 artículo (no se agregan: 1 vacía).');
  });

  it('refuses a text with nothing to add, or with more lines than one upload takes', () => {
    expect(stockTextProblem(checkStockText(''))).toBe('Pega al menos un artículo, uno por línea.');
    expect(stockTextProblem(checkStockText('\n\n\n'))).toBe(
      'Ninguna línea tiene un artículo que se pueda agregar.',
    );
    const most = Array.from({ length: STOCK_MAX_LINES }, (_, i) => `K${i}`).join('\n');
    expect(stockTextProblem(checkStockText(most))).toBeNull();
    expect(stockTextProblem(checkStockText(`${most}\nK-extra`))).toBe(
      'Hay 10,001 líneas: se pueden cargar hasta 10,000 a la vez. Divide la lista.',
    );
    expect(stockTextSummary(checkStockText(''))).toBe(
      'Un artículo por línea (código o usuario:contraseña).',
    );
  });
});

describe('stock files', () => {
  it('takes .txt and .csv files with something in them, up to the size limit', () => {
    expect(stockFileProblem({ name: 'claves.txt', size: 120 })).toBeNull();
    expect(stockFileProblem({ name: 'CLAVES.CSV', size: STOCK_FILE_MAX_BYTES })).toBeNull();
    expect(stockFileProblem({ name: 'claves.xlsx', size: 120 })).toMatch(/\.txt o \.csv/);
    expect(stockFileProblem({ name: 'txt', size: 120 })).toMatch(/\.txt o \.csv/);
    expect(stockFileProblem({ name: 'vacio.txt', size: 0 })).toBe('El archivo está vacío.');
    expect(stockFileProblem({ name: 'grande.txt', size: STOCK_FILE_MAX_BYTES + 1 })).toMatch(
      /^El archivo pesa más de 16 MB/,
    );
  });
});

describe('the upload result', () => {
  it('says how many items were added, in the singular and plural', () => {
    expect(addedSentence(0)).toBe('No se agregó ningún artículo.');
    expect(addedSentence(1)).toBe('Se agregó 1 artículo.');
    expect(addedSentence(2)).toBe('Se agregaron 2 artículos.');
    expect(addedSentence(1200)).toBe('Se agregaron 1,200 artículos.');
  });
});
