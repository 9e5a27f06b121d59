// After `react-router build`: writes a brotli (.br) and a gzip (.gz) copy next to every text asset
// of build/client, at the densest settings (done once, so it may take its time). The server sends
// them to clients that accept them (serveStatic's `precompressed`).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../build/client');
const TEXT = /\.(?:js|mjs|css|svg|json|txt|xml|webmanifest|map|ico)$/i;
const MIN_BYTES = 1024;

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : [full];
  });
}

let count = 0;
let before = 0;
let after = 0;
for (const file of files(ROOT)) {
  if (!TEXT.test(file)) continue;
  const body = readFileSync(file);
  if (body.length < MIN_BYTES) continue;
  const br = zlib.brotliCompressSync(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  const gz = zlib.gzipSync(body, { level: zlib.constants.Z_BEST_COMPRESSION });
  writeFileSync(`${file}.br`, br);
  writeFileSync(`${file}.gz`, gz);
  count += 1;
  before += body.length;
  after += br.length;
}
console.log(
  `precompressed ${count} files: ${(before / 1024).toFixed(0)} KB → ${(after / 1024).toFixed(0)} KB with brotli`,
);
