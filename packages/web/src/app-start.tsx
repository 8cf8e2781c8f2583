import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { AppRoot } from './app-root';
import { readLandingStep } from './landing-step';
import { router } from './router';

/** Renders the app into #root, or takes over the prerendered markup there as it is (ADR 053). */
export function startApp(rootElement: HTMLElement): void {
  if (!rootElement.hasChildNodes()) {
    createRoot(rootElement).render(<AppRoot router={router} />);
    return;
  }
  // The router renders its matches without a Suspense boundary around them on the server, and with one
  // in the browser unless it knows the page was rendered on a server: `router.ssr` is what TanStack's
  // own hydration sets. Without it the trees differ and React silently renders the page anew.
  router.ssr = { manifest: undefined };
  // Load the route's code first, so the page hydrates at once instead of suspending. As a transition,
  // React hydrates in slices that yield to the browser (the page is already painted and readable),
  // not in one long task that would hold up a tap — as long as no tap reaches React meanwhile, which
  // the entry script sees to (hydration-gate.ts, ADR 068).
  void router
    .load()
    .then(() =>
      startTransition(
        () =>
          void hydrateRoot(
            rootElement,
            <AppRoot router={router} hydrating landingStep={readLandingStep()} />,
          ),
      ),
    );
}
