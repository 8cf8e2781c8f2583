import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

// scrypt, salted, with its parameters stored beside the hash (`scrypt$N$r$p$salt$key`) so they can be
// raised later: a hash made with other parameters is rewritten at the next successful sign-in (ADR 058).
// OWASP's password-storage guidance: N=2^17, r=8, p=1 — 128 MiB and about half a second per hash here.
export const DEFAULT_SCRYPT_LOG_N = 17;
const R = 8;
const P = 1;
const KEY_LENGTH = 64;

/**
 * At most this many derivations at once per process: each holds 128·N·r bytes (128 MiB at N=2^17) on a
 * libuv thread, so a burst of sign-ins queues here instead of taking all the memory and every thread.
 */
const MAX_CONCURRENT = 2;
let running = 0;
const waiting: (() => void)[] = [];

async function withSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await fn();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return withSlot(
    () =>
      new Promise((resolve, reject) => {
        scrypt(password, salt, KEY_LENGTH, { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 }, (err, key) =>
          err ? reject(err) : resolve(key),
        );
      }),
  );
}

export async function hashPassword(password: string, logN = DEFAULT_SCRYPT_LOG_N): Promise<string> {
  const n = 2 ** logN;
  const salt = randomBytes(16);
  const key = await derive(password, salt, n, R, P);
  return `scrypt$${n}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** True when `stored` was made with other parameters than the ones configured now. */
export function needsRehash(stored: string, logN = DEFAULT_SCRYPT_LOG_N): boolean {
  const [scheme, n, r, p] = stored.split('$');
  return scheme !== 'scrypt' || Number(n) !== 2 ** logN || Number(r) !== R || Number(p) !== P;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const N = Number(n);
  // Parameters come from our own table, but never let a corrupt row ask for gigabytes.
  if (!Number.isInteger(N) || N < 2 || N > 2 ** 20 || Number(r) > 32 || Number(p) > 16) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), N, Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash of a random password: verifying against it costs the same as a real check (no user oracle). */
const dummyHashes = new Map<number, Promise<string>>();
export function dummyPasswordHash(logN = DEFAULT_SCRYPT_LOG_N): Promise<string> {
  let hash = dummyHashes.get(logN);
  if (!hash) {
    hash = hashPassword(randomBytes(16).toString('hex'), logN);
    dummyHashes.set(logN, hash);
  }
  return hash;
}

export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
