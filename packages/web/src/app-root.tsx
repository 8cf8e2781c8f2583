import { MantineProvider } from '@mantine/core';
import { type AnyRouter, RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { useMarkAppReady } from './app-ready';
import { cssVariablesResolver, theme } from './theme';

/** The whole app around a router: the same tree in the browser and in the prerender (hydration). */
export function AppRoot({ router, hydrating = false }: { router: AnyRouter; hydrating?: boolean }) {
  useMarkAppReady(!hydrating);
  return (
    <StrictMode>
      <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
        <RouterProvider router={router} />
      </MantineProvider>
    </StrictMode>
  );
}
