import { createMemoryHistory } from '@tanstack/react-router';
import { renderToString } from 'react-dom/server';
import { AppRoot } from './app-root';
import { createAppRouter } from './router';

// Build-time rendering of public pages (prerender.mjs, ADR 053): the page's HTML as the browser will
// hydrate it, so a visitor reads it before any script has run.
export async function render(url: string): Promise<string> {
  const router = createAppRouter(createMemoryHistory({ initialEntries: [url] }));
  await router.load();
  return renderToString(<AppRoot router={router} />);
}
