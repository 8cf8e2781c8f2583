import { MantineProvider } from '@mantine/core';
import { createMemoryHistory } from '@tanstack/react-router';
import type { ArmContent } from '@uf/shared/experiments';
import type { LandingStep } from '@uf/shared/landing-step';
import { renderToString } from 'react-dom/server';
import { prerenderToNodeStream } from 'react-dom/static';
import { renderingWith } from './app-config';
import { AppRoot } from './app-root';
import { CheckingAuthentication } from './features/admin-shell/checking-authentication';
import { createAppRouter } from './router';
import { cssVariablesResolver, theme } from './theme';

export { SIGNED_IN_DOCUMENT } from '@uf/shared/page-paths';

// Server rendering of the public pages (ADR 053, ADR 057): the page's HTML as the browser will hydrate it,
// so a visitor reads it before any script has run.

/**
 * Build time (prerender.mjs): a public page as built. Run time (issue 48): the landing page in a landing
 * experiment's arm, its copy in the config the page reads (the server writes the same copy into the
 * document's config, so hydration renders the same text).
 */
export async function render(url: string, landingCopy?: ArmContent): Promise<string> {
  const router = createAppRouter(createMemoryHistory({ initialEntries: [url] }));
  await router.load();
  return renderingWith(landingCopy ? { landingCopy } : {}, () => renderToString(<AppRoot router={router} />));
}

/**
 * Run time (the server's answer to a posted landing form): the landing page in the given step, with the
 * step's lazily loaded parts (the beneficiary form, the Congratulations screen) in place. React's
 * streaming renderers put a boundary that was still loading out of order, behind an inline script the
 * page's CSP (and a browser without scripts) would never run; so a first render only makes the lazy parts
 * load, and the second, once they have, renders the whole page in order.
 */
export async function renderLanding(step: LandingStep, landingCopy?: ArmContent): Promise<string> {
  const router = createAppRouter(createMemoryHistory({ initialEntries: ['/'] }));
  await router.load();
  const page = <AppRoot router={router} landingStep={step} />;
  const { prelude } = await prerenderToNodeStream(page);
  prelude.resume();
  return renderingWith(landingCopy ? { landingCopy } : {}, () => renderToString(page));
}

/**
 * Build time (prerender.mjs): what a page behind sign-in shows before the admin area's code has loaded,
 * the page's own first screen (ADR 071). Static markup beside #root, never hydrated: the page hides it
 * once the app has put its own page in place.
 */
export function renderCheckingAuthentication(): string {
  return renderToString(
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
      <CheckingAuthentication />
    </MantineProvider>,
  );
}
