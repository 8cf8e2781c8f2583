import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import { ERROR_CODES } from '@uf/shared/errors';
import type { Alive, NotAlive, Readiness } from '@uf/shared/health.output';
import { warmUpPatterns } from '@uf/shared/rule-patterns';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { buyerTasks, idleBuyersSweep, requeueSales, storedRulesCheck } from './buyers/buyer-worker';
import type { AppConfig } from './config';
import { moneySummarySection } from './costs/money-summary';
import { RETRY_AFTER_SECONDS } from './db/availability';
import { type Database, migrate, openDatabase } from './db/database';
import type { EmbeddedDatabase } from './db/embedded';
import { AppError, codeOfStatus, toErrorResponse } from './errors';
import { AccessLogController, createLogDestination } from './logging';
import { createMetrics, type Metrics, registerJobQueueGauge } from './metrics';
import { servingLoad } from './platform/serving-load';
import { allowedMethodsPlugin } from './plugins/allowed-methods';
import { inputGuardPlugin } from './plugins/input-guard';
import { landingFormPlugin } from './plugins/landing-form';
import { metricsEndpointPlugin } from './plugins/metrics-endpoint';
import { openApiPlugin } from './plugins/openapi';
import { originCheckPlugin } from './plugins/origin-check';
import { secureCookiesPlugin } from './plugins/secure-cookies';
import { securityHeadersPlugin } from './plugins/security-headers';
import { sessionPlugin } from './plugins/session';
import { type ServedLandingArm, spaPlugin } from './plugins/spa';
import { adminStreamRoutes } from './rest/admin-stream-routes';
import { registerRestRoutes } from './rest/rest-adapter';
import { restRoutesOf } from './rest/rest-routes';
import { createServices } from './services';
import { createContextFactory } from './trpc/context';
import { createInvoker } from './trpc/procedures';
import { createAppRouter, createOperations } from './trpc/router';
import { registerSessionFreeProcedures } from './trpc/session-free-routes';
import { createCallerFactory, runOperation } from './trpc/trpc';
import { failedDeliveriesSection } from './webhooks/webhook.service';
import { BUSY_REQUESTS, startWebhookWorker } from './webhooks/webhook-worker';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
    metrics: Metrics;
    /**
     * Graceful stop, first step (ADR 056): from now on every new request is answered 503 (app format,
     * Retry-After) and every answer carries `Connection: close`, so keep-alive connections end after
     * their current answer. `close()` follows.
     */
    startDraining(): void;
    readonly draining: boolean;
    /** Writes out log lines still queued (the log destination is asynchronous). */
    flushLogs(): void;
    /** E-mail reports and alerts (ADR 063): what other features call, and tests drive with their clock. */
    emailReports: import('./email/email-reports.service').EmailReports;
  }
}

const isAdminPath = (url: string) => url.startsWith('/api/admin/');
const TRPC_PREFIX = '/api/trpc';
/** The route the tRPC adapter registers (every method, one procedure per request). */
const TRPC_ROUTE = `${TRPC_PREFIX}/:path`;

/**
 * Errors Node reports on a connection before a request reaches the app (ADR 056): a request whose body
 * did not arrive within REQUEST_TIMEOUT_SECONDS (408), headers too large (431), a malformed request
 * (400) — answered in the app's error format, then the connection is closed. Client mistakes: not logged
 * above debug.
 */
function clientErrorHandler(
  this: FastifyInstance,
  err: Error & { code?: string },
  socket: import('node:net').Socket,
) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, text, body] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [
          408,
          'Request Timeout',
          { error: ERROR_CODES.requestTimeout, message: 'The request took too long to arrive.' },
        ]
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [
            431,
            'Request Header Fields Too Large',
            { error: ERROR_CODES.validation, message: 'The request headers are too large.' },
          ]
        : [400, 'Bad Request', { error: ERROR_CODES.validation, message: 'The request is malformed.' }];
  this.log.debug({ err }, 'client error');
  const json = JSON.stringify(body);
  const inFlight = (socket as unknown as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    socket.write(
      `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(json)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${json}`,
    );
  }
  socket.destroy();
}

export type BuildOptions = {
  /** Connection URL of the PostgreSQL to use (external, or the embedded one started by main). */
  databaseUrl: string;
  /** The embedded PostgreSQL when main started one: backups are then logical ones (no pg_dump needed). */
  embedded?: EmbeddedDatabase;
  /** Where log lines go instead of standard output (tests that read the logs). */
  logStream?: import('pino').DestinationStream;
  /** The clock of the e-mail scheduler (tests set the time instead of waiting for 09:00). */
  clock?: () => Date;
  /** false: the e-mail scheduler does not run by itself (tests call app.emailReports.runDue). */
  emailScheduler?: boolean;
  /** The job queue watchdog's thresholds (webhooks/job-queue-watchdog.ts); tests shorten them. */
  jobQueueWatchdog?: { stallMs?: number; checkMs?: number };
};

const defaultWebDist = () => path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/** Builds the whole app without listening. Tests call this with their own database. */
export async function buildApp(config: AppConfig, options: BuildOptions): Promise<FastifyInstance> {
  const requestTimeoutMs = config.requestTimeoutSeconds * 1000;
  const logDestination = config.logLevel === 'silent' ? undefined : createLogDestination();
  const app = Fastify({
    logger: logDestination
      ? {
          level: config.logLevel,
          stream: options.logStream ?? logDestination,
          redact: ['req.headers.cookie', 'req.headers.authorization'],
        }
      : false,
    logController: new AccessLogController(),
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
    routerOptions: { maxParamLength: 5000 },
    genReqId: () => crypto.randomUUID(),
    // Timeouts (issue 22, ADR 056): the whole request (headers and body) must arrive within
    // REQUEST_TIMEOUT_SECONDS, else 408 and the connection is closed; headers within 60 s at most; idle
    // keep-alive connections close after Fastify's 72 s. Node checks the connections every second.
    requestTimeout: requestTimeoutMs,
    http: {
      requestTimeout: requestTimeoutMs,
      headersTimeout: Math.min(60_000, requestTimeoutMs),
      connectionsCheckingInterval: Math.min(1_000, requestTimeoutMs),
    },
    clientErrorHandler,
    // Requests that arrive while closing get the app's own 503 (below), not Fastify's default body.
    return503OnClosing: false,
  });
  // Registered first, so it runs last (onClose hooks run in reverse order): lines written while
  // closing are written out too.
  if (logDestination) app.addHook('onClose', async () => logDestination.flushSync());
  app.decorate('flushLogs', () => logDestination?.flushSync());

  // Graceful stop (ADR 056): the first hook of every request, so a refused one costs nothing else.
  let draining = false;
  app.decorate('startDraining', () => {
    draining = true;
  });
  Object.defineProperty(app, 'draining', { get: () => draining });
  app.addHook('onRequest', (_req, reply, done) => {
    if (!draining) return done();
    reply.code(503).send({
      error: ERROR_CODES.unavailable,
      message: 'The server is restarting. Please try again in a moment.',
    });
  });
  app.addHook('onSend', (_req, reply, payload, done) => {
    // Every 503 says when to come back; while draining, no connection is kept for another request.
    if (reply.statusCode === 503 && !reply.hasHeader('retry-after'))
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });

  const db = await openDatabase({
    url: options.databaseUrl,
    poolMax: config.dbPoolMax,
    log: (message) => app.log.info(message),
    timeouts: {
      connectMs: config.dbConnectTimeoutSeconds * 1000,
      statementMs: config.dbStatementTimeoutSeconds * 1000,
    },
  });
  app.decorate('db', db);
  const metrics = createMetrics();
  app.decorate('metrics', metrics);
  app.addHook('onResponse', async (req, reply) => {
    // Route patterns (not raw URLs) keep label cardinality bounded.
    const route = req.routeOptions.url ?? 'not_found';
    metrics.httpRequests.inc({ method: req.method, route, status: String(reply.statusCode) });
    metrics.httpDuration.observe({ method: req.method, route }, reply.elapsedTime / 1000);
  });
  app.addHook('onClose', async () => db.close());
  if (config.migrate) await migrate(db);

  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, req, reply) => {
    // Errors the app raises in hooks (AppError, e.g. the input guard) map like every other answer.
    if (err instanceof AppError) {
      const { status, body } = toErrorResponse(err);
      return reply.code(status).send(body);
    }
    const status = err.statusCode && err.statusCode >= 400 ? err.statusCode : 500;
    // The client went away before its request was read in full (a closed tab, a proxy giving up): a
    // reset socket, not a database that is away (issue 38). Said as such; nobody is left to answer.
    if (err.code === 'ECONNRESET' && (req.raw.readableAborted || req.raw.socket?.destroyed)) {
      req.log.warn({ code: err.code }, 'client aborted the request before it was read in full');
      return reply.code(400).send({ error: ERROR_CODES.validation, message: 'The request was aborted.' });
    }
    const mapped = toErrorResponse(err);
    if (mapped.status === 503) {
      req.log.warn({ err }, 'database unavailable');
      return reply.code(503).send(mapped.body);
    }
    if (status >= 500) {
      req.log.error({ err }, 'unhandled error');
      return reply.code(500).send({
        error: ERROR_CODES.internal,
        message: 'Something went wrong on our side. Please try again.',
      });
    }
    return reply.code(status).send({ error: codeOfStatus(status), message: err.message });
  });

  await app.register(inputGuardPlugin);
  await app.register(allowedMethodsPlugin);
  await app.register(fastifyCookie);
  await app.register(rateLimit, { global: false });
  // Before every route (the CSP report route included): it collects them for /api/openapi.json.
  await app.register(openApiPlugin);
  await app.register(securityHeadersPlugin, {
    adPixelScriptUrl: config.adPixelScriptUrl,
    trustedFormEnabled: config.trustedFormEnabled,
  });
  await app.register(originCheckPlugin);
  await app.register(secureCookiesPlugin, { cookieSecure: config.cookieSecure });

  const services = createServices(
    db,
    config,
    options.embedded ? { kind: 'embedded', pool: db.pool } : { kind: 'postgres', url: options.databaseUrl },
    metrics,
    { clock: options.clock, warn: (msg, detail) => app.log.warn(detail ?? {}, msg) },
  );
  app.decorate('emailReports', services.emailReports);
  let webhookWorker: Awaited<ReturnType<typeof startWebhookWorker>> | undefined;
  // onClose hooks run in reverse order. Registered after the database's hook and before the group
  // commits' one (issue 38): the last batches are written (and wake the fan-out), then the fan-out and the
  // job queue's workers stop — attempts finished or cut short, fetched jobs handed back — and only then do
  // the pools close.
  app.addHook('onClose', async () => {
    await services.webhookOutbox.stop();
    await webhookWorker?.stop();
  });
  // Registered after the database's hook, so it runs first (LIFO): queued analytics events, lead
  // submissions and partner leads are written before the pool closes.
  app.addHook('onClose', async () => {
    await Promise.all([
      services.analytics.close(),
      services.leads.close(),
      services.partnerLeads.close(),
      services.emailReports.close(),
      services.landingArms.close(),
    ]);
  });
  services.analytics.startUpkeep((err) => app.log.warn({ err }, 'analytics upkeep run failed'));
  // The e-mail summaries count the failed webhook deliveries of their period (ADR 062, ADR 063).
  services.emailReports.addSummarySection(failedDeliveriesSection);
  // And the money of their period: revenue, ad cost, profit, best and worst campaigns (issue 35).
  services.emailReports.addSummarySection(moneySummarySection(config.timeZone));
  if (options.emailScheduler !== false) {
    services.emailReports.start((err) => app.log.warn({ err }, 'e-mail reports run failed'));
  }
  // Webhook deliveries (ADR 062): every replica runs the job queue's workers, unless
  // WEBHOOKS_CONCURRENCY=0 leaves them to other replicas. While this process is busy serving, its
  // attempts are paced: the lead routes keep the machine during a surge.
  const serving = config.webhooksConcurrency === 0 ? undefined : servingLoad(app.server, BUSY_REQUESTS);
  // This replica reads buyers' answers: RE2 pays its start-up cost now, not during the first sale's answer.
  if (serving) warmUpPatterns();
  webhookWorker =
    serving === undefined
      ? undefined
      : await startWebhookWorker({
          connectionString: options.databaseUrl,
          concurrency: config.webhooksConcurrency,
          timeouts: {
            connectMs: config.dbConnectTimeoutSeconds * 1000,
            statementMs: config.dbStatementTimeoutSeconds * 1000,
          },
          delivery: {
            allowPrivateUrls: config.webhooksAllowPrivateUrls,
            retrySchedule: config.webhooksRetrySchedule,
            // The admins who opted in to alerts hear of it (ADR 063); never throws.
            onEndpointDisabled: (endpoint) => services.emailReports.alerts.endpointDisabled(endpoint),
            onError: (err) => app.log.warn({ err }, 'webhook upkeep failed'),
          },
          busy: serving.busy,
          // Lead buyers' sales (ADR 069) run on the same queue.
          tasks: buyerTasks({
            allowPrivateUrls: config.webhooksAllowPrivateUrls,
            timeZone: config.timeZone,
            clock: services.clock,
            mailer: services.mailer,
            onBuyerPaused: (buyer) => services.emailReports.alerts.buyerPaused(buyer),
          }),
          sweeps: [
            requeueSales,
            idleBuyersSweep(services.clock, (buyer) => services.emailReports.alerts.buyerIdle(buyer)),
            storedRulesCheck((buyer) =>
              app.log.warn(
                { buyerId: buyer.id },
                `Buyer "${buyer.name}" is not sent leads until its response rules are edited: ${buyer.problem} (ADR 072)`,
              ),
            ),
          ],
          log: (level, message) =>
            app.log[level === 'error' ? 'error' : 'warn']({ component: 'webhooks' }, message),
          ...(options.jobQueueWatchdog ? { watchdog: options.jobQueueWatchdog } : {}),
        });
  if (webhookWorker) {
    services.webhookOutbox.fanOutLocally(webhookWorker.fanOut);
    registerJobQueueGauge(metrics, webhookWorker);
  }
  const operations = createOperations({ supportEmail: config.supportEmail });
  const appRouter = createAppRouter({ supportEmail: config.supportEmail }, operations);
  const createContext = createContextFactory(config, services);

  // /healthz: the process and what it runs (the embedded PostgreSQL) are alive — 503 while the embedded
  // database is being restarted. /readyz: this instance can serve now — the database answered within 1 s,
  // no writer's writes are failing or stalled (it names which), this process's job queue is not stalled
  // (its watchdog, ADR 062), the server is not stopping; it answers within ~1 s whatever happens (ADR 056).
  app.get('/healthz', async (_req, reply) => {
    const embedded = db.health.embeddedState;
    if (embedded && embedded !== 'running') {
      return reply
        .code(503)
        .send({ status: 'unhealthy', database: `embedded PostgreSQL ${embedded}` } satisfies NotAlive);
    }
    return { status: 'ok' } satisfies Alive;
  });
  app.get('/readyz', async (_req, reply) => {
    const problem =
      db.health.embeddedState && db.health.embeddedState !== 'running'
        ? `embedded PostgreSQL ${db.health.embeddedState}`
        : (db.health.writeProblem ??
          webhookWorker?.queueHealth().problem ??
          ((await db.isReady(1_000)) ? undefined : 'database unavailable'));
    return reply.code(problem ? 503 : 200).send({ status: problem ?? 'ready' } satisfies Readiness);
  });
  await app.register(metricsEndpointPlugin, { token: config.metricsToken });

  const callerFactory = createCallerFactory(appRouter);
  const makeCaller = (ctx: Parameters<typeof callerFactory>[0]) => callerFactory(ctx);
  const invoke = createInvoker({ operations, makeCaller });
  const restRoutes = restRoutesOf(appRouter);
  // Public REST paths never read the admin session: they stay outside its scope, so hot anonymous
  // routes (analytics tracking, lead submission) skip the session hooks entirely (ADR 006).
  registerRestRoutes(
    app,
    restRoutes.filter((r) => !isAdminPath(r.url)),
    invoke,
    createContext,
  );

  // The session-free tRPC procedures (issue 23): the landing form's own calls, outside the session's scope.
  registerSessionFreeProcedures(app, { router: appRouter, invoke, createContext });

  // Honest methods on tRPC paths too (issue 22): a query answers GET, a mutation POST; anything else
  // (TRACE, OPTIONS, PUT…) 405 with Allow in the app's error format, before tRPC or the session run.
  const procedureTypes = new Map(
    Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>).map(
      ([name, procedure]) => [name, procedure._def.type === 'mutation' ? 'POST' : 'GET'],
    ),
  );
  app.addHook('onRequest', (req, reply, done) => {
    if (req.routeOptions.url !== TRPC_ROUTE) return done();
    // An unknown procedure is tRPC's 404, unless the method is one no procedure answers.
    const allowed =
      procedureTypes.get((req.params as { path?: string }).path ?? '') ??
      (req.method === 'GET' || req.method === 'POST' ? undefined : 'GET, POST');
    if (!allowed || req.method === allowed) return done();
    reply
      .code(405)
      .header('allow', allowed)
      .send({
        error: ERROR_CODES.methodNotAllowed,
        message: `${req.method} is not allowed here; use ${allowed}`,
      });
  });

  await app.register(async (withSession) => {
    await withSession.register(sessionPlugin, { config, pool: db.pool });
    await withSession.register(fastifyTRPCPlugin, {
      prefix: '/api/trpc',
      trpcOptions: {
        router: appRouter,
        createContext,
        // One call per request (issue 22): a batch would carry many submissions around every
        // per-request limit. The web app's links are httpLink (no batching).
        allowBatching: false,
        onError: ({ error, req }: { error: { code: string }; req: { log: FastifyInstance['log'] } }) => {
          if (error.code === 'INTERNAL_SERVER_ERROR') req.log.error({ err: error }, 'tRPC procedure failed');
          else if (error.code === 'SERVICE_UNAVAILABLE') req.log.warn({ err: error }, 'database unavailable');
        },
      },
    });
    registerRestRoutes(
      withSession,
      restRoutes.filter((r) => isAdminPath(r.url)),
      invoke,
      createContext,
    );
    await withSession.register(adminStreamRoutes, {
      pool: db.pool,
      timeZone: config.timeZone,
      backupDir: config.backupDir,
      adsConversion: config.adsConversion,
    });
  });

  // Issue 48 (ADR 075): the landing experiment's arm of a request to the landing page, by the same
  // cookieless visitor id the analytics count (its country and bot rules too), never a cookie.
  const landingArm = async (req: FastifyRequest): Promise<ServedLandingArm | null> => {
    const header = (name: string) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v.join(',') : v;
    };
    const served = await services.landingArms.choose({
      method: req.method,
      ip: req.ip || null,
      userAgent: header('user-agent'),
      secChUa: header('sec-ch-ua'),
      purpose: [header('sec-purpose'), header('purpose'), header('x-purpose'), header('x-moz')]
        .filter(Boolean)
        .join(','),
      query: (req.query ?? {}) as Record<string, unknown>,
    });
    return served
      ? { content: served.arm.content, contentHash: served.arm.contentHash, tokenArm: served.tokenArm }
      : null;
  };
  await app.register(spaPlugin, {
    distDir: config.webDistDir ? path.resolve(config.webDistDir) : defaultWebDist(),
    timeZone: config.timeZone,
    publicConfig: {
      supportEmail: config.supportEmail,
      adPixelScriptUrl: config.adPixelScriptUrl ?? null,
      trustedFormEnabled: config.trustedFormEnabled,
      // The business clock (issue 26): the admin shows every date and time in this zone.
      timeZone: config.timeZone,
    },
    issueFormToken: (arm) => services.quality.issueToken(arm),
    landingArm,
  });
  // The landing form posted by the browser itself (ADR 057): the same operations as the API's doors.
  await app.register(landingFormPlugin, {
    submitLead: (req, reply, input) =>
      runOperation(operations['lead.submit'], createContext({ req, res: reply }), input),
    setBeneficiary: (req, reply, id, beneficiary) =>
      makeCaller(createContext({ req, res: reply })).lead.setBeneficiary({ id, beneficiary } as never),
    leadState: async (req, reply, id) =>
      (await makeCaller(createContext({ req, res: reply })).lead.byId({ id })).state ?? null,
    renderLanding: (step, formToken, copy) => app.renderLanding(step, formToken, copy),
    issueFormToken: (arm) => services.quality.issueToken(arm),
    landingArm,
  });

  return app;
}
