import { describe, expect, it } from 'vitest';
import {
  allowedExtensionsText,
  cleanFileName,
  fileExtension,
  fileMaxBytes,
  fileProblem,
  FILE_MAX_BYTES,
  formatBytes,
  isUploadId,
} from './files';
import { serviceFieldListSchema, serviceFieldSchema, validateField } from './fields';

describe('file fields', () => {
  it('reads extensions and cleans names', () => {
    expect(fileExtension('Volcado.FINAL.BIN')).toBe('bin');
    expect(fileExtension('.bashrc')).toBe('');
    expect(fileExtension('sin-extension')).toBe('');
    expect(cleanFileName('C:\\fakepath\\equipo\u202e.bin')).toBe('equipo.bin');
    expect(cleanFileName('../../')).toBe('archivo');
    expect(cleanFileName(`${'a'.repeat(300)}.zip`)).toMatch(/^a{196}\.zip$/);
  });

  it('checks size and extension against the field, in Spanish', () => {
    const field = { maxBytes: 2048, extensions: ['bin', 'zip'] };
    expect(fileProblem(field, { name: 'a.bin', size: 10 })).toBeNull();
    expect(fileProblem(field, { name: 'a.bin', size: 0 })).toBe('El archivo está vacío.');
    expect(fileProblem(field, { name: 'a.bin', size: 2049 })).toBe(
      'El archivo es demasiado grande (máximo 2 KB).',
    );
    expect(fileProblem(field, { name: 'a.txt', size: 10 })).toBe(
      'Este servicio solo acepta archivos .bin, .zip.',
    );
    expect(fileProblem({}, { name: 'x', size: 10 * 1024 * 1024 })).toBeNull();
    expect(fileMaxBytes({ maxBytes: FILE_MAX_BYTES * 2 })).toBe(FILE_MAX_BYTES);
    expect(allowedExtensionsText({})).toBe('');
    expect(formatBytes(1536)).toBe('2 KB');
    expect(formatBytes(10 * 1024 * 1024)).toBe('10 MB');
    expect(formatBytes(2.5 * 1024 * 1024)).toBe('2.5 MB');
  });

  it('a file field holds an upload id', () => {
    const field = { key: 'volcado', label: 'Volcado', type: 'file' as const, required: true };
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(isUploadId(id)).toBe(true);
    expect(validateField(field, id.toUpperCase())).toEqual({ ok: true, value: id });
    expect(validateField(field, 'equipo.bin')).toEqual({ ok: false, message: 'Sube el archivo.' });
    expect(validateField(field, '')).toEqual({ ok: false, message: 'Este campo es obligatorio.' });
  });

  it('an admin sets limits; one file per service, never the identifier', () => {
    const parsed = serviceFieldSchema.parse({
      key: 'volcado',
      label: 'Volcado',
      type: 'file',
      extensions: ['.BIN', ' zip '],
      maxBytes: 1024,
    });
    expect(parsed.extensions).toEqual(['bin', 'zip']);
    expect(
      serviceFieldSchema.safeParse({ key: 'a', label: 'A', type: 'file', extensions: ['b.in'] })
        .success,
    ).toBe(false);
    expect(
      serviceFieldSchema.safeParse({ key: 'a', label: 'A', type: 'file', identifier: true })
        .success,
    ).toBe(false);
    const two = serviceFieldListSchema.safeParse([
      { key: 'a', label: 'A', type: 'file' },
      { key: 'b', label: 'B', type: 'file' },
    ]);
    expect(two.success).toBe(false);
  });
});
