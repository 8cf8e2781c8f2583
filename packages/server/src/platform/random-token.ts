import { randomFillSync } from 'node:crypto';

// Random tokens on the request path (a lead's owner token, a form token's nonce): bytes from the same
// CSPRNG as crypto.randomBytes, read a few kilobytes at a time (as Node's own randomUUID does) instead
// of one system call per token — randomBytes(32) cost ~10 µs of the submit route's CPU under load, the
// pooled read well under 1 µs. Each byte is handed out once.

const POOL_SIZE = 4096;
const pool = Buffer.allocUnsafe(POOL_SIZE);
let used = POOL_SIZE;

/** `bytes` random bytes (at most 256) as base64url text. */
export function randomToken(bytes: number): string {
  if (!Number.isInteger(bytes) || bytes < 1 || bytes > 256) throw new RangeError(`randomToken(${bytes})`);
  if (used + bytes > POOL_SIZE) {
    randomFillSync(pool);
    used = 0;
  }
  const token = pool.toString('base64url', used, used + bytes);
  // What was handed out is never read again: overwritten now, refilled before its next use.
  pool.fill(0, used, used + bytes);
  used += bytes;
  return token;
}
