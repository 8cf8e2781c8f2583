import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import { ERROR_CODES, type ErrorCode } from '@uf/shared/errors';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppConfig } from './config';
import { type Database, migrate, openDatabase } from './db/database';
import type { EmbeddedDatabase } from './db/embedded';
import { AppError, toErrorResponse } from './errors';
import { AccessLogController, createLogDestination } from './logging';
import { createMetrics, type Metrics } from './metrics';
import { allowedMethodsPlugin } from './plugins/allowed-methods';
import { inputGuardPlugin } from './plugins/input-guard';
import { landingFormPlugin } from './plugins/landing-form';
import { metricsEndpointPlugin } from './plugins/metrics-endpoint';
import { openApiPlugin } from './plugins/openapi';
import { originCheckPlugin } from './plugins/origin-check';
import { securityHeadersPlugin } from './plugins/security-headers';
import { sessionPlugin } from './plugins/session';
import { spaPlugin } from './plugins/spa';
import { adminStreamRoutes } from './rest/admin-stream-routes';
import { registerRestRoutes } from './rest/rest-adapter';
import { restRoutes } from './rest/rest-routes';
import { createServices } from './services/index';
import { createContextFactory } from './trpc/context';
import { createAppRouter, createOperations } from './trpc/router';
import { createCallerFactory, runOperation } from './trpc/trpc';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
    metrics: Metrics;
    /** Writes out log lines still queued (the log destination is asynchronous). */
    flushLogs(): void;
  }
}

const STATUS_TO_CODE: Record<number, ErrorCode> = {
  401: ERROR_CODES.unauthorized,
  403: ERROR_CODES.forbidden,
  404: ERROR_CODES.notFound,
  409: ERROR_CODES.conflict,
  429: ERROR_CODES.rateLimited,
};

const isAdminPath = (url: string) => url.startsWith('/api/admin/');

export type BuildOptions = {
  /** Connection URL of the PostgreSQL to use (external, or the embedded one started by main). */
  databaseUrl: string;
  /** The embedded PostgreSQL when main started one: backups are then logical ones (no pg_dump needed). */
  embedded?: EmbeddedDatabase;
};

const defaultWebDist = () => path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/** Builds the whole app without listening. Tests call this with their own database. */
export async function buildApp(config: AppConfig, options: BuildOptions): Promise<FastifyInstance> {
  const logDestination = config.logLevel === 'silent' ? undefined : createLogDestination();
  const app = Fastify({
    logger: logDestination
      ? {
          level: config.logLevel,
          stream: logDestination,
          redact: ['req.headers.cookie', 'req.headers.authorization'],
        }
      : false,
    logController: new AccessLogController(),
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
    routerOptions: { maxParamLength: 5000 },
    genReqId: () => crypto.randomUUID(),
  });
  // Registered first, so it runs last (onClose hooks run in reverse order): lines written while
  // closing are written out too.
  if (logDestination) app.addHook('onClose', async () => logDestination.flushSync());
  app.decorate('flushLogs', () => logDestination?.flushSync());

  const db = await openDatabase({
    url: options.databaseUrl,
    poolMax: config.dbPoolMax,
    log: (message) => app.log.info(message),
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
    if (status >= 500) {
      req.log.error({ err }, 'unhandled error');
      return reply.code(500).send({
        error: ERROR_CODES.internal,
        message: 'Something went wrong on our side. Please try again.',
      });
    }
    const code = STATUS_TO_CODE[status] ?? ERROR_CODES.validation;
    return reply.code(status).send({ error: code, message: err.message });
  });

  await app.register(inputGuardPlugin);
  await app.register(allowedMethodsPlugin);
  await app.register(fastifyCookie);
  await app.register(rateLimit, { global: false });
  await app.register(securityHeadersPlugin, {
    adPixelScriptUrl: config.adPixelScriptUrl,
    trustedFormEnabled: config.trustedFormEnabled,
  });
  await app.register(originCheckPlugin);

  const services = createServices(
    db,
    config,
    options.embedded ? { kind: 'embedded', pool: db.pool } : { kind: 'postgres', url: options.databaseUrl },
    metrics,
  );
  // Registered after the database's hook, so it runs first (LIFO): queued analytics events, lead
  // submissions and partner leads are written before the pool closes.
  app.addHook('onClose', async () => {
    await Promise.all([services.analytics.close(), services.leads.close(), services.partnerLeads.close()]);
  });
  services.analytics.startUpkeep((err) => app.log.warn({ err }, 'analytics upkeep run failed'));
  const operations = createOperations({ supportEmail: config.supportEmail });
  const appRouter = createAppRouter({ supportEmail: config.supportEmail }, operations);
  const createContext = createContextFactory(config, services);

  // Before every route: it collects them for /api/openapi.json.
  await app.register(openApiPlugin);
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    const ready = await db.isReady();
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'database unavailable' });
  });
  await app.register(metricsEndpointPlugin, { token: config.metricsToken });

  const callerFactory = createCallerFactory(appRouter);
  const makeCaller = (ctx: Parameters<typeof callerFactory>[0]) => callerFactory(ctx);
  // Public REST paths never read the admin session: they stay outside its scope, so hot anonymous
  // routes (analytics tracking, lead submission) skip the session hooks entirely (ADR 006).
  registerRestRoutes(
    app,
    restRoutes.filter((r) => !isAdminPath(r.url)),
    makeCaller,
    createContext,
    operations,
  );

  await app.register(async (withSession) => {
    await withSession.register(sessionPlugin, { config, pool: db.pool });
    await withSession.register(fastifyTRPCPlugin, {
      prefix: '/api/trpc',
      trpcOptions: {
        router: appRouter,
        createContext,
        onError: ({ error, req }: { error: { code: string }; req: { log: FastifyInstance['log'] } }) => {
          if (error.code === 'INTERNAL_SERVER_ERROR') req.log.error({ err: error }, 'tRPC procedure failed');
        },
      },
    });
    registerRestRoutes(
      withSession,
      restRoutes.filter((r) => isAdminPath(r.url)),
      makeCaller,
      createContext,
      operations,
    );
    await withSession.register(adminStreamRoutes, { pool: db.pool, timeZone: config.timeZone });
  });

  await app.register(spaPlugin, {
    distDir: config.webDistDir ? path.resolve(config.webDistDir) : defaultWebDist(),
    timeZone: config.timeZone,
    publicConfig: {
      supportEmail: config.supportEmail,
      adPixelScriptUrl: config.adPixelScriptUrl ?? null,
      trustedFormEnabled: config.trustedFormEnabled,
    },
  });
  // The landing form posted by the browser itself (ADR 057): the same operations as the API's doors.
  await app.register(landingFormPlugin, {
    submitLead: (req, reply, input) =>
      runOperation(operations['lead.submit'], createContext({ req, res: reply }), input),
    setBeneficiary: (req, reply, id, beneficiary) =>
      makeCaller(createContext({ req, res: reply })).lead.setBeneficiary({ id, beneficiary } as never),
    leadState: async (req, reply, id) =>
      (await makeCaller(createContext({ req, res: reply })).lead.byId({ id })).state ?? null,
    renderLanding: (step) => app.renderLanding(step),
  });

  return app;
}
