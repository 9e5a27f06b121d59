import zlib from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { chooseEncoding, compression, MIN_COMPRESSED_BYTES } from './compression';

describe('choosing an encoding', () => {
  it('prefers brotli, falls back to gzip, honours q=0', () => {
    expect(chooseEncoding('gzip, deflate, br')).toBe('br');
    expect(chooseEncoding('gzip, deflate')).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip')).toBe('gzip');
    expect(chooseEncoding('gzip;q=0.5, br;q=0.2')).toBe('gzip');
    expect(chooseEncoding('identity')).toBeNull();
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding(undefined)).toBeNull();
  });
});

describe('the compression middleware', () => {
  const big = { items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `Servicio ${i}` })) };
  const app = new Hono();
  app.use(compression());
  app.get('/big', (c) => c.json(big));
  app.get('/small', (c) => c.json({ ok: true }));
  app.get('/csv', (c) => {
    c.header('Content-Disposition', 'attachment; filename="x.csv"');
    return c.body('a,b\n'.repeat(1000), 200, { 'Content-Type': 'text/csv; charset=utf-8' });
  });
  app.get('/png', (c) => c.body(new Uint8Array(4096), 200, { 'Content-Type': 'image/png' }));

  it('compresses large JSON with brotli or gzip and says Vary', async () => {
    const br = await app.request('/big', { headers: { 'Accept-Encoding': 'gzip, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toMatch(/Accept-Encoding/);
    const bytes = Buffer.from(await br.arrayBuffer());
    expect(bytes.length).toBeLessThan(JSON.stringify(big).length / 3);
    expect(JSON.parse(zlib.brotliDecompressSync(bytes).toString())).toEqual(big);
    expect(Number(br.headers.get('content-length'))).toBe(bytes.length);

    const gz = await app.request('/big', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(Buffer.from(await gz.arrayBuffer())).toString())).toEqual(
      big,
    );
  });

  it('leaves small bodies, clients that take no encoding and binary files alone', async () => {
    const small = await app.request('/small', { headers: { 'Accept-Encoding': 'br' } });
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(small.headers.get('vary')).toMatch(/Accept-Encoding/);
    expect(JSON.stringify(await small.json()).length).toBeLessThan(MIN_COMPRESSED_BYTES);
    const plain = await app.request('/big');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.json()).toEqual(big);
    const png = await app.request('/png', { headers: { 'Accept-Encoding': 'br' } });
    expect(png.headers.get('content-encoding')).toBeNull();
  });

  it('compresses a CSV download', async () => {
    const csv = await app.request('/csv', { headers: { 'Accept-Encoding': 'br' } });
    expect(csv.headers.get('content-encoding')).toBe('br');
    expect(csv.headers.get('content-disposition')).toContain('x.csv');
    const text = zlib.brotliDecompressSync(Buffer.from(await csv.arrayBuffer())).toString();
    expect(text).toBe('a,b\n'.repeat(1000));
  });
});
