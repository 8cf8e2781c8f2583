// Renders every public page (ADR 053) into dist/prerendered/<name>.html: dist/index.html with the page's
// markup inside <div id="root">, and lists them in dist/prerendered/pages.json (path → file). The server
// answers those paths with these files (its config and today's date filled in), the browser hydrates them.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { appModules } from './report-bundle.mjs';

const here = import.meta.dirname;
const dist = path.join(here, 'dist');
const { render, renderCheckingAuthentication, SIGNED_IN_DOCUMENT } = await import(
  pathToFileURL(path.join(here, 'dist-ssr/entry-server.js')).href
);

// name → the path rendered. `not-found` is what any unknown path shows (with status 404).
export const PRERENDERED = {
  landing: '/',
  terms: '/terms',
  privacy: '/privacy',
  'privacy-notice': '/privacy-notice',
  'ca-privacy': '/ca-privacy',
  contact: '/contact',
  unsubscribe: '/unsubscribe',
  'thank-you': '/thank-you',
  'not-found': '/__not-found__',
};

// The prerendered page paints without JavaScript, so its scripts must not compete with the first paint
// for a phone's bandwidth: no modulepreload hints (the entry script still loads, and pulls its imports).
// The app's chunks are listed instead, for the entry to request together once the visitor interacts.
const shell = readFileSync(path.join(dist, 'index.html'), 'utf8');
const template = shell
  .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
  .replace('<script type="module" crossorigin', '<script type="module" fetchpriority="low" crossorigin')
  .replace('</head>', `  <meta name="app-modules" content="${appModules().join(' ')}" />\n  </head>`);
if (!template.includes('<div id="root"></div>')) throw new Error('dist/index.html has no empty #root');
mkdirSync(path.join(dist, 'prerendered'), { recursive: true });
const pages = {};
for (const [name, url] of Object.entries(PRERENDERED)) {
  const html = await render(url);
  writeFileSync(
    path.join(dist, 'prerendered', `${name}.html`),
    template.replace('<div id="root"></div>', `<div id="root">${html}</div>`),
  );
  pages[name === 'not-found' ? '*' : url] = `${name}.html`;
  console.info(
    `web: prerendered ${url} → dist/prerendered/${name}.html (${(html.length / 1024).toFixed(1)} KB)`,
  );
}
// The pages behind sign-in (ADR 071): the app shell as built (its scripts start at once, with their
// preload hints), and beside the empty #root what those pages show first, "Checking authentication...",
// painted before the admin area's code has loaded (≈1 s after the document on this machine) and hidden
// by the entry stylesheet (admin-boot.css) once the app has put its page in place.
writeFileSync(
  path.join(dist, 'prerendered', 'signed-in.html'),
  shell.replace(
    '<div id="root"></div>',
    `<div id="root"></div>\n    <div id="auth-check" role="status">${renderCheckingAuthentication()}</div>`,
  ),
);
pages[SIGNED_IN_DOCUMENT] = 'signed-in.html';
console.info(`web: the pages behind sign-in → dist/prerendered/signed-in.html`);
// Read by the server (server/src/plugins/spa.ts): "*" is the not-found page, SIGNED_IN_DOCUMENT the
// pages behind sign-in.
writeFileSync(path.join(dist, 'prerendered', 'pages.json'), `${JSON.stringify(pages, null, 2)}\n`);
