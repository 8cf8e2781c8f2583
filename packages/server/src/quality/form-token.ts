import { createHmac, timingSafeEqual } from 'node:crypto';
import { FORM_TOKEN_MAX_AGE_SECONDS } from '@uf/shared/quality';
import { randomToken } from '../platform/random-token';

// The landing page's form token (issue 33, ADR 065): the issue time and a random nonce, signed with a
// secret of this deployment. A script that never loaded a page has none (or one it made up); a token
// proves when the page was served, so the seconds from page to submit are measured by the server's clock
// alone, and its nonce serves one lead. Not a secret: it is in the page. Not a CAPTCHA: it costs a
// person nothing and works without JavaScript.

const VERSION = 'v1';
/**
 * Seconds since the epoch (base 36), nonce (12 bytes), on a page served in a landing experiment's arm the
 * experiment (its UUID's 32 hex digits) and the arm's key (issue 48), and the signature (first 16 bytes
 * of HMAC-SHA256 over everything before it). The arm rides in the token because every submission already
 * carries it — the app's and the browser's own post alike — and the signature keeps it from being chosen.
 */
const TOKEN_PATTERN =
  /^v1\.([0-9a-z]{1,10})\.([A-Za-z0-9_-]{16})(?:\.([0-9a-f]{32})-([a-z0-9][a-z0-9-]{0,31}))?\.([A-Za-z0-9_-]{22})$/;

/** The landing experiment's arm a page was served in (issue 48). */
export type TokenArm = { experimentId: string; arm: string };
const uuidOfHex = (h: string) =>
  `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;

export type TokenState = 'ok' | 'missing' | 'forged' | 'expired';

export type TokenCheck = {
  state: TokenState;
  /** The nonce of a genuine token (expired ones too): a token serves one lead. */
  nonce: string | null;
  /** Seconds from the page being served to now, for a genuine token. */
  ageSeconds: number | null;
  /** The arm of a genuine token's page, if it was served in one. */
  arm?: TokenArm | null;
};

export type FormTokens = {
  issue(now: Date, arm?: TokenArm | null): string;
  check(token: unknown, now: Date): TokenCheck;
};

export function createFormTokens(secret: string): FormTokens {
  const sign = (payload: string) =>
    createHmac('sha256', secret).update(payload).digest().subarray(0, 16).toString('base64url');
  return {
    issue(now, arm) {
      const armPart = arm ? `.${arm.experimentId.replaceAll('-', '').toLowerCase()}-${arm.arm}` : '';
      const payload = `${VERSION}.${Math.floor(now.getTime() / 1000).toString(36)}.${randomToken(12)}${armPart}`;
      return `${payload}.${sign(payload)}`;
    },
    check(token, now) {
      if (typeof token !== 'string' || token.trim() === '')
        return { state: 'missing', nonce: null, ageSeconds: null };
      const match = TOKEN_PATTERN.exec(token.trim());
      if (!match) return { state: 'forged', nonce: null, ageSeconds: null };
      const [, issued = '', nonce = '', experimentHex, armKey, signature = ''] = match;
      const armPart = experimentHex && armKey ? `.${experimentHex}-${armKey}` : '';
      const expected = Buffer.from(sign(`${VERSION}.${issued}.${nonce}${armPart}`));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
        return { state: 'forged', nonce: null, ageSeconds: null };
      }
      const ageSeconds = Math.floor(now.getTime() / 1000) - Number.parseInt(issued, 36);
      // Issued in the future beyond a little clock skew between replicas: not one of ours.
      if (ageSeconds < -60) return { state: 'forged', nonce: null, ageSeconds: null };
      return {
        state: ageSeconds > FORM_TOKEN_MAX_AGE_SECONDS ? 'expired' : 'ok',
        nonce,
        ageSeconds: Math.max(0, ageSeconds),
        arm: experimentHex && armKey ? { experimentId: uuidOfHex(experimentHex), arm: armKey } : null,
      };
    },
  };
}
