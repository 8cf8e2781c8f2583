import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { buildOpenApiDocument, type RegisteredRoute } from '../openapi/openapi-document';
import { renderDocsPage } from '../openapi/openapi-page';

/**
 * GET /api/openapi.json and /api/docs, built from the routes the app really registers (so a path can
 * never be served undocumented or documented unserved). Register it before any route.
 */
declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered after the OpenAPI plugin (method and URL pattern), in order. */
    readonly registeredRoutes: readonly RegisteredRoute[];
  }
}

export const openApiPlugin = fp(
  async (app: FastifyInstance) => {
    const routes: RegisteredRoute[] = [];
    app.decorate('registeredRoutes', routes);
    app.addHook('onRoute', (route) => {
      // A procedure's REST route names its procedure, access and schemas in its config (rest-adapter.ts).
      const { procedure, access, inputs, output, inQuery } = (route.config ?? {}) as Omit<
        RegisteredRoute,
        'method' | 'url'
      >;
      for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
        routes.push({ method, url: route.url, procedure, access, inputs, output, inQuery });
      }
    });
    // Built on first use: by then every route is registered.
    let built: { json: string; html: string } | null = null;
    const build = () => {
      if (!built) {
        const doc = buildOpenApiDocument(routes);
        built = { json: JSON.stringify(doc), html: renderDocsPage(doc) };
      }
      return built;
    };
    app.get('/api/openapi.json', (_req, reply) =>
      reply.type('application/json; charset=utf-8').header('cache-control', 'no-cache').send(build().json),
    );
    app.get('/api/docs', (_req, reply) =>
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(build().html),
    );
  },
  { name: 'openapi' },
);
