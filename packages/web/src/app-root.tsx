import { MantineProvider } from '@mantine/core';
import { type AnyRouter, RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { useMarkAppReady } from './app-ready';
import { ToastRegion } from './features/site-shell/toast-region';
import { cssVariablesResolver, theme } from './theme';

/** The whole app around a router: the same tree in the browser and in the prerender (hydration). */
export function AppRoot({ router, hydrating = false }: { router: AnyRouter; hydrating?: boolean }) {
  useMarkAppReady(!hydrating);
  return (
    <StrictMode>
      <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
        <RouterProvider router={router} />
        {/* Outside the router: one region for every page, never part of a route's (re)rendering. */}
        <ToastRegion />
      </MantineProvider>
    </StrictMode>
  );
}
