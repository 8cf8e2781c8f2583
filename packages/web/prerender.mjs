// Renders the public pages that must paint from the first response (ADR 053) into
// dist/prerendered/<name>.html: dist/index.html with the page's markup inside <div id="root">. The
// server answers those paths with these files (its config inserted), the browser hydrates them.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const here = import.meta.dirname;
const dist = path.join(here, 'dist');
const { render } = await import(pathToFileURL(path.join(here, 'dist-ssr/entry-server.js')).href);

// name → the path rendered. `not-found` is what any unknown path shows (with status 404).
export const PRERENDERED = { landing: '/', 'not-found': '/__not-found__' };

// The prerendered page paints without JavaScript, so its scripts must not compete with the first paint
// for a phone's bandwidth: no modulepreload hints (the entry script still loads, and pulls its imports).
const template = readFileSync(path.join(dist, 'index.html'), 'utf8')
  .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
  .replace('<script type="module" crossorigin', '<script type="module" fetchpriority="low" crossorigin');
if (!template.includes('<div id="root"></div>')) throw new Error('dist/index.html has no empty #root');
mkdirSync(path.join(dist, 'prerendered'), { recursive: true });
for (const [name, url] of Object.entries(PRERENDERED)) {
  const html = await render(url);
  writeFileSync(
    path.join(dist, 'prerendered', `${name}.html`),
    template.replace('<div id="root"></div>', `<div id="root">${html}</div>`),
  );
  console.info(
    `web: prerendered ${url} → dist/prerendered/${name}.html (${(html.length / 1024).toFixed(1)} KB)`,
  );
}
