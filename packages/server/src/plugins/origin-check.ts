import { ERROR_CODES } from '@uf/shared/errors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The request path as the router sees it: percent-decoded, repeated slashes collapsed, dot segments
 * resolved, lower-cased. Never decide anything from the raw URL (issue 22: `/%61pi/admin/…` reached the
 * admin routes while a check of the raw URL for `/api/` let it through); decide from the matched route
 * (`req.routeOptions.url`) or, where no route matched, from this.
 */
export function normalisedPath(req: FastifyRequest): string {
  const raw = req.url.split('?')[0] ?? '/';
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // a malformed escape: keep it raw
  }
  const segments: string[] = [];
  for (const segment of decoded.replace(/\\/g, '/').split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`.toLowerCase();
}

/** The route pattern Fastify matched, or the normalised path when none did (not-found answers). */
export function routeScope(req: FastifyRequest): string {
  return req.routeOptions.url ?? normalisedPath(req);
}

/** Admin answers: the /api/admin/ routes and the admin tRPC procedures (`admin.*`, `adminAuth.*`). */
export function isAdminScope(req: FastifyRequest): boolean {
  const scope = routeScope(req);
  if (scope.startsWith('/api/admin/') || scope.startsWith('/api/trpc/admin')) return true;
  if (scope === '/api/trpc/:path') return /^admin/i.test((req.params as { path?: string }).path ?? '');
  return false;
}

/**
 * Cross-site request protection beside SameSite=Strict cookies: a browser's state-changing request
 * whose Origin is not this site (scheme, host and port: the request's own, as a trusted proxy reports them)
 * is refused with 403 — on every path, so no spelling of a path (encoded,
 * doubled slashes, dot segments, another case) can step around it (issue 22). Calls without an Origin
 * (servers, curl, the partner API) are unaffected; the site's own pages and forms send its own Origin.
 */
export const originCheckPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', async (req, reply) => {
      if (!STATE_CHANGING.has(req.method)) return;
      const origin = req.headers.origin;
      if (!origin) return;
      // Scheme, host and port (issue 38): `https://127.0.0.1:4200` is not the http site on that port. Both
      // sides through URL, so a default port written out (`:443`) and host case compare as browsers send them.
      let sameOrigin = false;
      try {
        sameOrigin = new URL(origin).origin === new URL(`${req.protocol}://${req.host}`).origin;
      } catch {
        sameOrigin = false;
      }
      if (!sameOrigin) {
        return reply
          .code(403)
          .send({ error: ERROR_CODES.forbidden, message: 'Cross-site requests are not allowed' });
      }
    });
  },
  { name: 'origin-check' },
);
