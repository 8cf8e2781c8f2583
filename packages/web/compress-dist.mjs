// Writes a Brotli (.br) and a gzip (.gz) copy beside every compressible file of dist/ at build time, so
// the server answers with the smallest encoding the browser accepts without compressing per request
// (@fastify/static `preCompressed`; ADR 053). Files that would not shrink by 5 % are left alone.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = path.resolve(import.meta.dirname, 'dist');
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else if (COMPRESSIBLE.test(name)) yield full;
  }
}

let raw = 0;
let br = 0;
for (const file of files(dist)) {
  const data = readFileSync(file);
  const brotli = brotliCompressSync(data, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
  });
  const gzip = gzipSync(data, { level: 9 });
  if (brotli.length < data.length * 0.95) writeFileSync(`${file}.br`, brotli);
  if (gzip.length < data.length * 0.95) writeFileSync(`${file}.gz`, gzip);
  raw += data.length;
  br += Math.min(brotli.length, data.length);
}
console.info(
  `web: pre-compressed dist/ (${(raw / 1024).toFixed(0)} KB → ${(br / 1024).toFixed(0)} KB with Brotli)`,
);
