import { describe, expect, it } from 'vitest';
import { contentProblem, sniffFile } from './order-files.service';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

describe('what a file is, by its content', () => {
  it('recognises the formats people send', () => {
    expect(sniffFile(bytes([0x50, 0x4b, 0x03, 0x04], 'rest'))?.name).toBe('zip');
    expect(sniffFile(bytes('%PDF-1.7'))?.name).toBe('pdf');
    expect(sniffFile(bytes([0x1f, 0x8b, 8])))?.toMatchObject({ name: 'gzip' });
    expect(sniffFile(bytes('MZ', [0x90, 0])))?.toMatchObject({ name: 'exe' });
    expect(sniffFile(bytes('firmware')))?.toBeNull();
  });

  it('refuses a name that lies about the content, and programs under another name', () => {
    expect(contentProblem('a.zip', bytes([0x50, 0x4b, 0x03, 0x04]))).toBeNull();
    expect(contentProblem('a.apk', bytes('not a zip'))).toBe(
      'El contenido del archivo no corresponde a su extensión (.apk).',
    );
    expect(contentProblem('a.txt', bytes('hola\n'))).toBeNull();
    expect(contentProblem('a.log', bytes([0x00, 0x01]))).toMatch(/no corresponde/);
    expect(contentProblem('a.csv', bytes([0xff, 0xfe, 0xfd]))).toMatch(/no corresponde/);
    expect(contentProblem('dump.bin', bytes([0x12, 0x34]))).toBeNull();
    expect(contentProblem('dump.bin', bytes('MZ'))).toMatch(/es un programa/);
    expect(contentProblem('dump', bytes([0x7f], 'ELF'))).toMatch(/es un programa/);
    expect(contentProblem('tool.exe', bytes('MZ'))).toBeNull();
  });
});
