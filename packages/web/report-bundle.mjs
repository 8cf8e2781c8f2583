// What the landing page loads, gzip-compressed, from the build's manifest (dist/.vite/manifest.json).
// Runs after every web build; with --check (npm test) it fails when a figure is over its limit. Sizes,
// not timings: never flaky. Issue 12 / ADR 053:
// - critical path: what the prerendered HTML itself loads before the page paints: the entry script
//   (with its static imports) and the one blocking stylesheet. Goals: JS ≤ 60 KB, CSS ≤ 15 KB.
// - after the first paint: the app the entry starts once the document has loaded (React, the router,
//   Mantine, the landing page; src/app-start.tsx and its static imports) and what the page loads at
//   mount (analytics). Its limit is the figure this build reached plus a small margin: it holds the
//   ground won (150 → 152: the staged start in src/main.tsx splits the same code into more chunks,
//   +1.6 KB of chunk wrappers); the 60 KB for *all* of the landing page's JavaScript is out of reach while the
//   page hydrates with React (react-dom alone is about 60 KB gzip).
// - the landing page must load no stylesheet after the first paint (it would be painted unstyled).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export const LIMITS_KB = { criticalJs: 60, css: 15, afterPaintJs: 152 };
/** Modules whose chunks the landing page loads on its own after the first paint (see the file comment). */
const AFTER_PAINT = ['src/app-start.tsx', 'src/features/lead-form/analytics.ts'];

const dist = path.resolve(import.meta.dirname, 'dist');

/** The chunk of `key` and every chunk it imports statically (what loading it loads), by file. */
function closure(manifest, key, seen = new Map()) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`report-bundle: ${key} is not in the build manifest`);
  if (seen.has(chunk.file)) return seen;
  seen.set(chunk.file, chunk);
  for (const imported of chunk.imports ?? []) closure(manifest, imported, seen);
  return seen;
}

const gzipKb = (file) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length / 1024;
const cssOf = (chunks) => [...new Set([...chunks.values()].flatMap((c) => c.css ?? []))];

/** The landing page's figures (KB gzip, with the files behind them) and what is over its limit. */
export function landingBundle() {
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
  const critical = closure(manifest, 'index.html');
  const afterPaint = new Map();
  for (const key of AFTER_PAINT) closure(manifest, key, afterPaint);
  for (const file of critical.keys()) afterPaint.delete(file);
  const lateCss = cssOf(afterPaint).filter((file) => !cssOf(critical).includes(file));
  const measure = (files) => ({ files, kb: files.reduce((sum, file) => sum + gzipKb(file), 0) });
  const figures = {
    criticalJs: measure([...critical.keys()]),
    css: measure(cssOf(critical)),
    afterPaintJs: measure([...afterPaint.keys()]),
  };
  const problems = Object.entries(LIMITS_KB)
    .filter(([name, limit]) => figures[name].kb > limit)
    .map(([name, limit]) => `${name} ${figures[name].kb.toFixed(1)} KB > ${limit} KB`);
  if (lateCss.length > 0) problems.push(`stylesheets loaded after the first paint: ${lateCss.join(', ')}`);
  return { figures, problems };
}

if (process.argv[1] === import.meta.filename) {
  const { figures, problems } = landingBundle();
  const titles = {
    criticalJs: 'JavaScript before the first paint',
    css: 'CSS (one blocking stylesheet)',
    afterPaintJs: 'JavaScript after the first paint (hydration)',
  };
  console.info('Landing page (gzip):');
  for (const [name, { files, kb }] of Object.entries(figures)) {
    for (const file of files) console.info(`    ${file}  ${gzipKb(file).toFixed(1)} KB`);
    console.info(`  ${titles[name]}: ${kb.toFixed(1)} KB (limit ${LIMITS_KB[name]} KB)`);
  }
  console.info(problems.length ? `  OVER: ${problems.join('; ')}` : '  all within their limits');
  if (process.argv.includes('--check') && problems.length > 0) process.exit(1);
}
