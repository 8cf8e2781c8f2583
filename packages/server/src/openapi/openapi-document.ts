import { ERROR_CODES, ERROR_STATUS } from '@uf/shared/errors';
import type { $ZodType } from 'zod/v4/core';
import { PROBLEM_TITLES, problemTypeUri } from '../rest/problem';
import { isZod } from '../trpc/procedures';
import { inputSchema, type JsonSchema, outputSchema, ref } from './json-schema';
import { componentSchemas, type OperationDoc, operations, type Tag } from './openapi-operations';

export type RegisteredRoute = {
  method: string;
  url: string;
  /** The procedure a REST route runs (its documentation is keyed by it). */
  procedure?: string;
  /** Who may call that procedure (admins). */
  access?: 'admin' | 'enrolling';
  /** That procedure's input schemas: the route's query (GET) or body (any other method) and path. */
  inputs?: $ZodType[];
  /** That procedure's output schema, when it declares one. */
  output?: $ZodType;
  /** The procedure's input is the query string whatever the method (RestMeta.inQuery). */
  inQuery?: true;
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

type ObjectSchema = JsonSchema & { properties?: Record<string, JsonSchema>; required?: string[] };

/** A procedure's input as JSON Schema: its `.input()`, or the fields of every one (tRPC merges them). */
function procedureInput(route: RegisteredRoute, doc: OperationDoc | undefined): ObjectSchema | undefined {
  const inputs = route.inputs ?? [];
  if (inputs.length === 0) return undefined;
  const schemas = inputs.map((input) => inputSchema(input, doc?.input?.fields) as ObjectSchema);
  if (schemas.length === 1) return schemas[0];
  // tRPC merges chained object inputs into one object: so do their fields.
  return {
    type: 'object',
    properties: Object.assign({}, ...schemas.map((schema) => schema.properties ?? {})),
    required: [...new Set(schemas.flatMap((schema) => schema.required ?? []))],
  };
}

/** What a schema accepts says nothing (`z.unknown()`: the procedure parses its input itself). */
const saysNothing = (schema: JsonSchema | undefined) => !schema || Object.keys(schema).length === 0;

/**
 * The route's share of its procedure's input, by the REST adapter's rule (`restInput`): the path's
 * parameters, then a GET's query string or any other method's JSON body.
 */
function splitInput(input: ObjectSchema | undefined, pathNames: string[], method: string) {
  if (!input?.properties) return { path: {}, rest: undefined };
  const path = Object.fromEntries(
    pathNames.flatMap((name) => (input.properties?.[name] ? [[name, input.properties[name]]] : [])),
  );
  const properties = Object.fromEntries(
    Object.entries(input.properties).filter(([name]) => !pathNames.includes(name)),
  );
  const required = (input.required ?? []).filter((name) => !pathNames.includes(name));
  const rest: ObjectSchema = { ...input, properties, required };
  if (required.length === 0) delete rest.required;
  if (method !== 'GET' && Object.keys(properties).length === 0) return { path, rest: undefined };
  return { path, rest };
}

function buildOperation(
  route: RegisteredRoute,
  described: OperationDoc | undefined,
  components: Record<string, JsonSchema>,
) {
  const doc: OperationDoc | undefined =
    described && route.access && !described.auth ? { ...described, auth: 'admin' } : described;
  const pathNames = [...route.url.matchAll(/:([A-Za-z_]\w*)/g)].map((m) => m[1] ?? '');
  const input = procedureInput(route, doc);
  if (route.procedure && doc && !saysNothing(input) && (doc.body || doc.query)) {
    // The procedure's schema is the one description of its input (issue 23).
    throw new Error(`${route.procedure}: its input is its procedure's; the document must not write it again`);
  }
  const split = splitInput(input, pathNames, route.method);
  const pathParams = pathNames.map((name) => ({
    name,
    in: 'path',
    required: true,
    // The procedure's schema of the parameter, else a UUID; the words may add what it is.
    schema: split.path[name]
      ? { ...split.path[name], ...doc?.pathParams?.[name] }
      : (doc?.pathParams?.[name] ?? { type: 'string', format: 'uuid' }),
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
  const inQuery = route.method === 'GET' || route.inQuery === true;
  const query = (inQuery ? split.rest : undefined) ?? (doc.query as ObjectSchema | undefined);
  const queryParams = Object.entries(query?.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: query?.required?.includes(name) ?? false,
    schema,
    ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
  }));
  const body = bodyOf(route, doc, inQuery ? undefined : split.rest, components);
  const headerParams = (doc.headers ?? []).map((h) => ({
    name: h.name,
    in: 'header',
    required: h.required,
    description: h.description,
    schema: h.schema,
  }));
  const responses: Record<string, unknown> = {};
  const success = Object.keys(doc.responses).find((status) => status.startsWith('2'));
  for (const [status, r] of Object.entries(doc.responses)) {
    const contentType =
      r.contentType ??
      (doc.problem && Number(status) >= 400 ? 'application/problem+json' : 'application/json');
    if (status === success && route.output && r.schema) {
      throw new Error(`${route.procedure}: its answer is its procedure's output; do not write it again`);
    }
    const written = isZod(r.schema) ? outputSchema(r.schema, components) : r.schema;
    const schema = status === success && route.output ? outputSchema(route.output, components) : written;
    responses[status] = {
      description: r.description,
      ...(schema ? { content: { [contentType]: { schema } } } : {}),
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
  const hasInput = Boolean(body || queryParams.length || pathParams.length || headerParams.length);
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
    ...(body
      ? {
          requestBody: {
            required: true,
            content: Object.fromEntries(
              body.contentTypes.map((type) => [
                type,
                { schema: body.schema, ...(body.example ? { example: body.example } : {}) },
              ]),
            ),
          },
        }
      : {}),
    responses,
  };
}

/**
 * The request body: a procedure's input without its path parameters (any method but GET), published as
 * a named component when the words ask for one; or, for a route that is no procedure (or whose
 * procedure parses its input itself), the body its description writes.
 */
function bodyOf(
  route: RegisteredRoute,
  doc: OperationDoc,
  derived: ObjectSchema | undefined,
  components: Record<string, JsonSchema>,
) {
  const example = doc.input?.example ?? doc.body?.example;
  if (route.method !== 'GET' && derived) {
    const schema = doc.input?.description ? { ...derived, description: doc.input.description } : derived;
    const name = doc.input?.component;
    if (name) components[name] ??= schema;
    return { schema: name ? ref(name) : schema, example, contentTypes: ['application/json'] };
  }
  if (!doc.body) return undefined;
  return {
    schema: doc.body.schema,
    example,
    contentTypes: doc.body.contentTypes ?? ['application/json'],
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
  // The shared schemas, and the procedures' inputs the words publish by name (added as routes are built).
  const schemas: Record<string, JsonSchema> = { ...componentSchemas };
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
    paths[path][route.method.toLowerCase()] = buildOperation(
      route,
      operations[route.procedure ?? key],
      schemas,
    );
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
      schemas,
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
