import { createTRPCClient, httpLink } from '@trpc/client';
import type { AppRouter } from '@uf/server/router';

// Public pages call the typed tRPC client directly: the landing page needs three calls, and leaving
// React Query out of its bundle keeps first load small (ADR 005). Admin pages use the hooks in trpc.ts.
export const publicApi = createTRPCClient<AppRouter>({
  links: [
    httpLink({ url: '/api/trpc', fetch: (url, init) => fetch(url, { ...init, credentials: 'include' }) }),
  ],
});
