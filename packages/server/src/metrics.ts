import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * One Prometheus registry per app instance (tests build many apps in one process). Features add their
 * own metrics here; the /metrics endpoint (ops plugin) serves it.
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpRequests: new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by route and status',
      labelNames: ['method', 'route', 'status'] as const,
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by route',
      labelNames: ['method', 'route'] as const,
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * The job queue's oldest due job (ADR 062, its watchdog): how long the oldest job this process could run
 * has been due without anyone running it, as of the watchdog's last check (every 5 s). A queue that keeps
 * up reads about 0; one that grows past 30 s while no job starts is a stall, which /readyz reports too.
 */
export function registerJobQueueGauge(
  metrics: Metrics,
  queue: { queueHealth(): { oldestDueSeconds: number | undefined } },
) {
  new Gauge({
    name: 'job_queue_oldest_due_seconds',
    help: 'Age of the oldest job that is due, not locked and has attempts left (0 when none), as of the job queue watchdog last check',
    registers: [metrics.registry],
    collect() {
      this.set(queue.queueHealth().oldestDueSeconds ?? 0);
    },
  });
}
