// Prints the landing page's initial JavaScript (the entry script plus everything index.html preloads),
// gzip-compressed, against the 150 KB budget of the public-site issue. Runs after every web build;
// with --check (npm test) it fails when the budget is exceeded. A size, not a timing: never flaky.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(import.meta.dirname, 'dist');
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const scripts = [
  ...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="([^"]+\.js)"/g),
].map((m) => m[1]);
let total = 0;
for (const src of scripts) {
  const size = gzipSync(readFileSync(path.join(dist, src.replace(/^\//, '')))).length;
  total += size;
  console.info(`  ${src}  ${(size / 1024).toFixed(1)} KB gzip`);
}
const BUDGET_KB = 150;
const kb = total / 1024;
console.info(
  `Landing page initial JavaScript: ${kb.toFixed(1)} KB gzip (budget ${BUDGET_KB} KB)${kb > BUDGET_KB ? '  OVER BUDGET' : ''}`,
);
if (process.argv.includes('--check') && kb > BUDGET_KB) process.exit(1);
