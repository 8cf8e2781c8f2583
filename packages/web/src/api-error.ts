import type { ErrorBody } from '@uf/shared/errors';

/** The server's { error, message, fieldErrors } body carried by a tRPC error, if any. */
export function appErrorOf(err: unknown): ErrorBody | undefined {
  const data = (err as { data?: { app?: ErrorBody } } | null)?.data;
  return data?.app;
}
