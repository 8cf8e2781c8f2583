import { ERROR_CODES, ERROR_STATUS } from '@uf/shared/errors';
import { PROBLEM_TITLES, problemTypeUri } from '../rest/problem';
import { type JsonSchema, ref } from './json-schema';
import { componentSchemas, type OperationDoc, operations, type Tag } from './openapi-operations';

export type RegisteredRoute = {
  method: string;
  url: string;
  /** The procedure a REST route runs (its documentation is keyed by it). */
  procedure?: string;
  /** Who may call that procedure (admins). */
  access?: 'admin' | 'enrolling';
};

const TAGS: { name: Tag; description: string }[] = [
  { name: 'Public', description: 'Called by the public website. No authentication.' },
  {
    name: 'Admin',
    description:
      'The admin dashboard. Sign in with POST /api/admin/login; the `uf_admin` cookie is the session.',
  },
  {
    name: 'Data requests',
    description:
      'Consent evidence and data subject requests (access, export, deletion). Admins only; every call is audited.',
  },
  { name: 'Partner', description: 'For lead partners. Authenticate with a Bearer API key.' },
  { name: 'Operations', description: 'Health checks and this documentation.' },
];

const DESCRIPTION = `The REST API of Unclaimed Funds Finder.

* **Errors** are JSON \`{error, message, fieldErrors?}\` with a 4xx status for bad input; the partner API answers RFC 9457 \`application/problem+json\` instead (see [Problem types](#problem-types)).
* **Partners** need only the Partner section: an API key from the operator, \`POST /api/partner/leads\`, and the problem types.
* Timestamps are ISO 8601 in UTC unless a field says otherwise.`;

/** Fastify's `/api/leads/:id` → OpenAPI's `/api/leads/{id}`. */
export const toOpenApiPath = (url: string) => url.replace(/:([A-Za-z_]\w*)/g, '{$1}');

const SECURITY_SCHEME = { admin: 'adminSession', partner: 'partnerKey', metrics: 'metricsToken' } as const;

const operationKey = (r: RegisteredRoute) => `${r.method} ${r.url}`;

/** Routes that belong in the document: /api paths and health checks, not the tRPC transport or the SPA. */
export function isDocumentedPath(url: string): boolean {
  if (url === '/healthz' || url === '/readyz' || url === '/metrics') return true;
  return url.startsWith('/api/') && !url.startsWith('/api/trpc');
}

function errorResponse(description: string, problem: boolean) {
  return problem
    ? { description, content: { 'application/problem+json': { schema: ref('Problem') } } }
    : { description, content: { 'application/json': { schema: ref('Error') } } };
}

function buildOperation(route: RegisteredRoute, described: OperationDoc | undefined) {
  const doc: OperationDoc | undefined =
    described && route.access && !described.auth ? { ...described, auth: 'admin' } : described;
  const pathParams = [...route.url.matchAll(/:([A-Za-z_]\w*)/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    // An {id} is a UUID; other path parameters say what they are (a backup's file name).
    schema: doc?.pathParams?.[m[1] ?? ''] ?? { type: 'string', format: 'uuid' },
  }));
  if (!doc) {
    return {
      tags: ['Operations'],
      summary: `${route.method} ${toOpenApiPath(route.url)}`,
      description: 'Not described yet.',
      operationId: operationIdOf(route),
      parameters: pathParams,
      responses: { default: { description: 'See the server' } },
    };
  }
  const query = doc.query as { properties?: Record<string, JsonSchema>; required?: string[] } | undefined;
  const queryParams = Object.entries(query?.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: query?.required?.includes(name) ?? false,
    schema,
    ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
  }));
  const headerParams = (doc.headers ?? []).map((h) => ({
    name: h.name,
    in: 'header',
    required: h.required,
    description: h.description,
    schema: h.schema,
  }));
  const responses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(doc.responses)) {
    const contentType =
      r.contentType ??
      (doc.problem && Number(status) >= 400 ? 'application/problem+json' : 'application/json');
    responses[status] = {
      description: r.description,
      ...(r.schema ? { content: { [contentType]: { schema: r.schema } } } : {}),
      ...(r.headers
        ? {
            headers: Object.fromEntries(
              Object.entries(r.headers).map(([name, h]) => [
                name,
                { description: h.description, schema: h.schema },
              ]),
            ),
          }
        : {}),
    };
  }
  const hasInput = Boolean(doc.body || queryParams.length || pathParams.length || headerParams.length);
  if (hasInput && !responses['400']) responses['400'] = errorResponse('Invalid input', Boolean(doc.problem));
  if (doc.auth && !responses['401']) {
    responses['401'] = errorResponse(
      doc.auth === 'admin' ? 'Not signed in' : 'Missing or invalid API key',
      Boolean(doc.problem),
    );
  }
  if (!responses['500'])
    responses['500'] = errorResponse('Unexpected server error (no internal details)', Boolean(doc.problem));
  return {
    tags: [doc.tag],
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    operationId: operationIdOf(route),
    // Every operation says who may call it: a scheme, or `[]` for anyone (public pages, health checks).
    security: doc.auth ? [{ [SECURITY_SCHEME[doc.auth]]: [] }] : [],
    parameters: [...pathParams, ...queryParams, ...headerParams],
    ...(doc.body
      ? {
          requestBody: {
            required: true,
            content: Object.fromEntries(
              (doc.body.contentTypes ?? ['application/json']).map((type) => [
                type,
                { schema: doc.body?.schema, ...(doc.body?.example ? { example: doc.body.example } : {}) },
              ]),
            ),
          },
        }
      : {}),
    responses,
  };
}

function operationIdOf(route: RegisteredRoute): string {
  const words = toOpenApiPath(route.url)
    .replace(/^\/(api\/)?/, '')
    .split(/[/{}-]+/)
    .filter(Boolean);
  return [route.method.toLowerCase(), ...words.map((w) => w[0]!.toUpperCase() + w.slice(1))].join('');
}

/** The OpenAPI 3.1 document of every REST path the app registered. */
export function buildOpenApiDocument(routes: RegisteredRoute[]) {
  const seen = new Set<string>();
  const paths: Record<string, Record<string, unknown>> = {};
  const sorted = [...routes]
    .filter((r) => r.method !== 'HEAD' && isDocumentedPath(r.url))
    .sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
  for (const route of sorted) {
    const key = operationKey(route);
    if (seen.has(key)) continue;
    seen.add(key);
    const path = toOpenApiPath(route.url);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = buildOperation(route, operations[route.procedure ?? key]);
  }
  const problemTypes = Object.values(ERROR_CODES).map((code) => ({
    type: problemTypeUri(code),
    title: PROBLEM_TITLES[code],
    status: ERROR_STATUS[code],
    code,
  }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Unclaimed Funds Finder API',
      version: '1.0.0',
      description: DESCRIPTION,
      license: { name: 'Proprietary: all rights reserved', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/' }],
    tags: TAGS,
    paths,
    components: {
      schemas: componentSchemas,
      securitySchemes: {
        adminSession: {
          type: 'apiKey',
          in: 'cookie',
          name: 'uf_admin',
          description: 'Session cookie set by POST /api/admin/login',
        },
        partnerKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'Partner API key, issued by the operator (`npm run cli -- api-key:create <partner>`)',
        },
        metricsToken: { type: 'http', scheme: 'bearer', description: 'The METRICS_TOKEN of the deployment' },
      },
    },
    'x-problem-types': problemTypes,
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
