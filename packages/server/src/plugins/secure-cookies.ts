import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

// `Secure` on cookies (issue 38, ADR 066): on every cookie of a request that came over HTTPS — directly,
// or as a trusted proxy's X-Forwarded-Proto says (Fastify's `req.protocol` under TRUST_PROXY) — and on
// every cookie when COOKIE_SECURE=true. Without COOKIE_SECURE a request that reaches the server over plain
// HTTP still gets its cookie (a local `npm start` must work), so behind HTTPS COOKIE_SECURE should be on:
// the server says so, once, when it first sees a request over HTTPS with it off. A warning at boot would
// have to guess from TRUST_PROXY, and the compose stack's default is a proxy on plain HTTP.

/** Whether the cookies set in answer to `req` are marked Secure. */
export function isSecureCookie(req: FastifyRequest, cookieSecure: boolean): boolean {
  return cookieSecure || req.protocol === 'https';
}

export const secureCookiesPlugin = fp(
  async (app: FastifyInstance, opts: { cookieSecure: boolean }) => {
    if (opts.cookieSecure) return;
    let warned = false;
    app.addHook('onRequest', (req, _reply, done) => {
      if (!warned && req.protocol === 'https') {
        warned = true;
        app.log.warn(
          'the site is served over HTTPS but COOKIE_SECURE is off: cookies are marked Secure only on requests that arrive over HTTPS; set COOKIE_SECURE=true so that none is ever sent without it',
        );
      }
      done();
    });
  },
  { name: 'secure-cookies' },
);
