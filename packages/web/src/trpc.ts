import { QueryClient } from '@tanstack/react-query';
import { httpLink } from '@trpc/client';
import { createTRPCReact } from '@trpc/react-query';
import type { AppRouter } from '@uf/server/router';
import type { ErrorBody } from '@uf/shared/errors';

export const trpc = createTRPCReact<AppRouter>();

export function createTrpcClient() {
  return trpc.createClient({
    links: [
      httpLink({ url: '/api/trpc', fetch: (url, init) => fetch(url, { ...init, credentials: 'include' }) }),
    ],
  });
}

/** Spec §7: no retries; cached data never stale; no refetch on focus (auth checks opt out per query). */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, staleTime: Number.POSITIVE_INFINITY, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

/** The server's { error, message, fieldErrors } body carried by a tRPC error, if any. */
export function appErrorOf(err: unknown): ErrorBody | undefined {
  const data = (err as { data?: { app?: ErrorBody } } | null)?.data;
  return data?.app;
}
