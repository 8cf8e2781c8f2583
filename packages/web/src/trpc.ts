import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { httpLink } from '@trpc/client';
import { createTRPCReact } from '@trpc/react-query';
import type { AppRouter } from '@uf/server/router';

// Typed React Query hooks for the admin area. The providers live in the lazily loaded admin layout
// (features/admin-shell/admin-providers.tsx), so none of this reaches the public landing bundle.
export const trpc = createTRPCReact<AppRouter>();

export { appErrorOf } from './api-error';

export function createTrpcClient() {
  return trpc.createClient({
    links: [
      httpLink({ url: '/api/trpc', fetch: (url, init) => fetch(url, { ...init, credentials: 'include' }) }),
    ],
  });
}

/**
 * Spec §7: no retries; cached data never stale; no refetch on focus (auth checks opt out per query).
 * `onError` hears every query's and mutation's failure (the admin area's session guard, issue 37).
 */
export function createQueryClient(onError?: (err: unknown, client: QueryClient) => void) {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: (err) => onError?.(err, client) }),
    mutationCache: new MutationCache({ onError: (err) => onError?.(err, client) }),
    defaultOptions: {
      queries: { retry: false, staleTime: Number.POSITIVE_INFINITY, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
  return client;
}
