import { describe, expect, it } from 'vitest';
import { checkTicketFiles, fileSize } from './attachments';

const MB = 1024 * 1024;

describe('checkTicketFiles', () => {
  it('accepts no files, and up to three images or PDFs of 5 MB', () => {
    expect(checkTicketFiles([])).toBeNull();
    expect(
      checkTicketFiles([
        { name: 'captura.png', size: 1000, type: 'image/png' },
        { name: 'foto.jpg', size: 5 * MB, type: 'image/jpeg' },
        { name: 'recibo.pdf', size: 20_000, type: 'application/pdf' },
      ]),
    ).toBeNull();
  });

  it('ignores the empty entry of an input with nothing chosen', () => {
    expect(checkTicketFiles([{ name: '', size: 0, type: 'application/octet-stream' }])).toBeNull();
  });

  it('refuses a fourth file', () => {
    const file = { name: 'a.png', size: 10, type: 'image/png' };
    expect(checkTicketFiles([file, file, file, file])).toBe(
      'Adjunta como mucho 3 archivos por mensaje.',
    );
  });

  it('refuses a file over 5 MB, saying its size', () => {
    expect(checkTicketFiles([{ name: 'grande.png', size: 5 * MB + 1, type: 'image/png' }])).toBe(
      '«grande.png» pesa 5.0 MB; el máximo es 5 MB por archivo.',
    );
    expect(checkTicketFiles([{ name: 'g.pdf', size: 7.5 * MB, type: 'application/pdf' }])).toBe(
      '«g.pdf» pesa 7.5 MB; el máximo es 5 MB por archivo.',
    );
  });

  it('refuses other types, and judges by the extension when the browser gives no type', () => {
    expect(checkTicketFiles([{ name: 'notas.txt', size: 10, type: 'text/plain' }])).toMatch(
      /^«notas\.txt» no es una imagen ni un PDF/,
    );
    expect(checkTicketFiles([{ name: 'Recibo.PDF', size: 10, type: '' }])).toBeNull();
    expect(checkTicketFiles([{ name: 'programa.exe', size: 10, type: '' }])).toMatch(
      /no es una imagen ni un PDF/,
    );
  });

  it('refuses an empty file', () => {
    expect(checkTicketFiles([{ name: 'vacío.png', size: 0, type: 'image/png' }])).toBe(
      '«vacío.png» está vacío.',
    );
  });
});

describe('fileSize', () => {
  it('writes KB under a megabyte and MB with one decimal above', () => {
    expect(fileSize(100)).toBe('1 KB');
    expect(fileSize(830 * 1024)).toBe('830 KB');
    expect(fileSize(1.25 * MB)).toBe('1.3 MB');
  });
});
