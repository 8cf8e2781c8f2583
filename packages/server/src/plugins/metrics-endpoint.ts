import { createHash, timingSafeEqual } from 'node:crypto';
import { ERROR_CODES } from '@uf/shared/errors';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Pool } from 'pg';
import { Gauge } from 'prom-client';

/**
 * GET /metrics: the app's Prometheus registry (HTTP rates and latencies per route, analytics batches
 * and drops, database pools, Node runtime). Readable only with `Authorization: Bearer <METRICS_TOKEN>`;
 * without a configured token the endpoint is off. The compose proxy also refuses /metrics from
 * outside, so Prometheus scrapes each replica on the internal network (ADR 040).
 */
export const metricsEndpointPlugin = fp(
  async (app: FastifyInstance, opts: { token: string | undefined }) => {
    registerPoolGauges(app);
    const expected = opts.token ? digest(opts.token) : null;

    // Scrapes every few seconds would drown the request log at info level.
    app.get('/metrics', { logLevel: 'warn' }, async (req, reply) => {
      if (!expected) {
        return reply.code(404).send({
          error: ERROR_CODES.notFound,
          message: 'Metrics are switched off. Set METRICS_TOKEN to enable /metrics.',
        });
      }
      const presented = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
      if (!presented || !timingSafeEqual(digest(presented), expected)) {
        return reply
          .code(401)
          .header('www-authenticate', 'Bearer realm="metrics"')
          .send({ error: ERROR_CODES.unauthorized, message: 'A valid metrics token is required.' });
      }
      const body = await app.metrics.registry.metrics();
      return reply.type(app.metrics.registry.contentType).header('cache-control', 'no-store').send(body);
    });
  },
  { name: 'metrics-endpoint' },
);

/** Equal-length digests, so the comparison takes the same time whatever was sent. */
function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Connections of both pools (the ORM's and the raw one) by state, read at scrape time. */
function registerPoolGauges(app: FastifyInstance) {
  const pools = async (): Promise<Record<string, Pool>> => ({
    raw: app.db.pool,
    orm: await app.db.orm.driver.getConnection().getNativeClient(),
  });
  new Gauge({
    name: 'db_pool_connections',
    help: 'Database connections per pool: total open, idle, and requests waiting for one',
    labelNames: ['pool', 'state'] as const,
    registers: [app.metrics.registry],
    async collect() {
      for (const [name, pool] of Object.entries(await pools())) {
        this.set({ pool: name, state: 'total' }, pool.totalCount);
        this.set({ pool: name, state: 'idle' }, pool.idleCount);
        this.set({ pool: name, state: 'waiting' }, pool.waitingCount);
      }
    },
  });
  new Gauge({
    name: 'db_pool_max_connections',
    help: 'Configured maximum connections per pool',
    labelNames: ['pool'] as const,
    registers: [app.metrics.registry],
    async collect() {
      for (const [name, pool] of Object.entries(await pools())) this.set({ pool: name }, pool.options.max);
    },
  });
}
