import { MantineProvider } from '@mantine/core';
import { type AnyRouter, RouterProvider } from '@tanstack/react-router';
import type { LandingStep } from '@uf/shared/landing-step';
import { StrictMode } from 'react';
import { useMarkAppReady } from './app-ready';
import { ToastRegion } from './features/site-shell/toast-region';
import { LandingStepContext } from './landing-step';
import { cssVariablesResolver, theme } from './theme';

/** The whole app around a router: the same tree in the browser and in the prerender (hydration). */
export function AppRoot({
  router,
  hydrating = false,
  landingStep = null,
}: {
  router: AnyRouter;
  hydrating?: boolean;
  /** The landing page's step as the server rendered it (ADR 057); null: the page as built. */
  landingStep?: LandingStep | null;
}) {
  useMarkAppReady(!hydrating);
  return (
    <StrictMode>
      <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
        <LandingStepContext.Provider value={landingStep}>
          <RouterProvider router={router} />
        </LandingStepContext.Provider>
        {/* Outside the router: one region for every page, never part of a route's (re)rendering. */}
        <ToastRegion />
      </MantineProvider>
    </StrictMode>
  );
}
