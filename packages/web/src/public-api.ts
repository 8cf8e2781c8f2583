import { createTRPCClient, httpLink } from '@trpc/client';
import type { AppRouter } from '@uf/server/router';

// Public pages call the typed tRPC client directly: the landing page needs three calls, and leaving
// React Query out of its bundle keeps first load small (ADR 005). Admin pages use the hooks in trpc.ts.
// A call may carry an Idempotency-Key in its context (the lead submission does, issue 22): sent as the
// header, so a retry of a submission whose answer was lost gets the original id, not 409.
export const publicApi = createTRPCClient<AppRouter>({
  links: [
    httpLink({
      url: '/api/trpc',
      fetch: (url, init) => fetch(url, { ...init, credentials: 'include' }),
      headers: ({ op }): Record<string, string> => {
        const key = (op.context as { idempotencyKey?: unknown }).idempotencyKey;
        return typeof key === 'string' ? { 'idempotency-key': key } : {};
      },
    }),
  ],
});
