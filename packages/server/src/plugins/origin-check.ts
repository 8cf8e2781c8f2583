import { ERROR_CODES } from '@uf/shared/errors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Cross-site request protection beside SameSite=Strict cookies: a browser's state-changing /api call
 * whose Origin is not this site is refused. Calls without an Origin (servers, curl) are unaffected.
 */
export const originCheckPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', async (req, reply) => {
      if (!STATE_CHANGING.has(req.method) || !req.url.startsWith('/api/')) return;
      const origin = req.headers.origin;
      if (!origin) return;
      let originHost: string | null = null;
      try {
        originHost = new URL(origin).host;
      } catch {
        originHost = null;
      }
      if (originHost !== req.host) {
        return reply
          .code(403)
          .send({ error: ERROR_CODES.forbidden, message: 'Cross-site requests are not allowed' });
      }
    });
  },
  { name: 'origin-check' },
);
