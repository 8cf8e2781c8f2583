import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildOpenApiDocument, isDocumentedPath, toOpenApiPath } from '../src/openapi/openapi-document';
import { operations } from '../src/openapi/openapi-operations';
import { startTestApp, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** Every call of spec §7, plus the paths this product adds (opt-out, partner API, data requests). */
const SPEC_PATHS = [
  'POST /api/analytics/track',
  'POST /api/submit-search',
  'GET /api/leads/{id}',
  'PATCH /api/leads/{id}/beneficiary',
  'POST /api/admin/login',
  'POST /api/admin/logout',
  'GET /api/admin/leads',
  'GET /api/admin/stats',
  'GET /api/admin/api-leads',
  'GET /api/admin/api-stats',
  'GET /api/admin/export',
  'GET /api/admin/export-api-leads',
  'POST /api/admin/backup',
  'DELETE /api/admin/leads/{id}',
  'DELETE /api/admin/leads',
  'DELETE /api/admin/api-leads/{id}',
  'DELETE /api/admin/api-leads',
  'GET /api/admin/analytics',
];
const ISSUE_PATHS = [
  'POST /api/unsubscribe',
  'POST /api/partner/leads',
  'GET /api/admin/leads/{id}/consent-receipt',
  'POST /api/admin/data-requests/lookup',
  'POST /api/admin/data-requests/export',
  'DELETE /api/admin/data-requests',
  'GET /api/admin/backups',
  'GET /api/admin/backups/{name}',
  'DELETE /api/admin/backups/{name}',
  'DELETE /api/admin/leads/matching',
  'DELETE /api/admin/api-leads/matching',
];

type Operation = { operationId: string; parameters: { name: string; in: string }[] };

async function fetchDocument() {
  const res = await t.app.inject({ url: '/api/openapi.json' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('application/json');
  return res.json();
}

function operationsOf(doc: {
  paths: Record<string, Record<string, { summary?: string; description?: string }>>;
}) {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
  );
}

describe('GET /api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const doc = await fetchDocument();
    expect(doc.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeTruthy();
    // What the validator leaves to us for 3.1: each {param} of a path is declared, and operation ids are unique.
    const ids = new Set<string>();
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, Operation>>)) {
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const op of Object.values(methods)) {
        const declared = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
        expect(declared.sort()).toEqual(inPath.sort());
        expect(ids.has(op.operationId)).toBe(false);
        ids.add(op.operationId);
      }
    }
  });

  it('lists every spec path and every path this issue adds', async () => {
    const keys = operationsOf(await fetchDocument()).map((o) => o.key);
    expect(keys).toEqual(expect.arrayContaining([...SPEC_PATHS, ...ISSUE_PATHS]));
  });

  it('describes every /api path the server answers, and nothing it does not', async () => {
    const doc = await fetchDocument();
    for (const { key, op } of operationsOf(doc)) {
      expect(op.description, `${key} is undocumented`).not.toBe('Not described yet.');
      const [method, path] = key.split(' ') as [string, string];
      if (method !== 'GET' && method !== 'POST' && method !== 'DELETE' && method !== 'PATCH') continue;
      const url = path.replace(/\{[^}]+\}/g, crypto.randomUUID());
      const res = await t.app.inject({ method, url, payload: method === 'GET' ? undefined : {} });
      // Unknown routes answer the JSON "No route for …" 404; a documented path never does.
      expect(res.body, `${key} is documented but not served`).not.toContain('No route for');
    }
  });

  it('documents every route the app registers outside its tRPC transport and pages (issue 23)', async () => {
    const keys = new Set(operationsOf(await fetchDocument()).map((o) => o.key));
    const registered = t.app.registeredRoutes.filter((r) => r.method !== 'HEAD');
    const missing = registered
      .filter((r) => isDocumentedPath(r.url))
      .map((r) => `${r.method} ${toOpenApiPath(r.url)}`)
      .filter((key) => !keys.has(key));
    expect(missing).toEqual([]);
    // What stays out is the web app's own transport and its pages, nothing else under /api.
    const left = registered.filter((r) => !isDocumentedPath(r.url) && r.url.startsWith('/api'));
    expect(left.every((r) => r.url.startsWith('/api/trpc/'))).toBe(true);
    expect(keys.has('POST /api/csp-report')).toBe(true);
    expect(keys.has('GET /healthz')).toBe(true);
  });

  it('keys each description by the procedure a route runs, and every description is of a served route', () => {
    const used = new Set(t.app.registeredRoutes.map((r) => r.procedure ?? `${r.method} ${r.url}`));
    expect(Object.keys(operations).filter((key) => !used.has(key))).toEqual([]);
    const submit = t.app.registeredRoutes.find((r) => r.url === '/api/submit-search');
    expect(submit?.procedure).toBe('lead.submit');
  });

  it("takes each procedure's query or body from the procedure's input schema, written nowhere else (issue 23)", async () => {
    const doc = await fetchDocument();
    const procedures = t.app.registeredRoutes.filter(
      (r) => r.procedure && r.inputs?.length && r.method !== 'HEAD' && isDocumentedPath(r.url),
    );
    expect(procedures.length).toBeGreaterThan(30);
    for (const route of procedures) {
      const key = `${route.method} ${route.url}`;
      const input = z.toJSONSchema(route.inputs?.[0] as z.ZodType, { io: 'input', unrepresentable: 'any' });
      const names = Object.keys((input as { properties?: object }).properties ?? {});
      const pathNames = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]);
      const op = doc.paths[toOpenApiPath(route.url)][route.method.toLowerCase()];
      const params = op.parameters as { name: string; in: string }[];
      expect(
        params.filter((p) => p.in === 'path').map((p) => p.name),
        key,
      ).toEqual(pathNames);
      const fields = names.filter((name) => !pathNames.includes(name)).sort();
      const body = op.requestBody?.content['application/json'].schema;
      const bodySchema = body?.$ref ? doc.components.schemas[body.$ref.split('/').pop()] : body;
      // A GET's input, or a route's that takes the query string whatever its method (RestMeta.inQuery).
      if (route.method === 'GET' || route.inQuery) {
        expect(
          params
            .filter((p) => p.in === 'query')
            .map((p) => p.name)
            .sort(),
          key,
        ).toEqual(fields);
        expect(body, key).toBeUndefined();
      } else if (names.length === 0) {
        // The procedure parses its body itself (the partner API): the words give the schema it parses with.
        expect(route.procedure, key).toBe('partner.createLead');
      } else {
        expect(Object.keys(bodySchema?.properties ?? {}).sort(), key).toEqual(fields);
      }
      // The words add prose and examples, never a procedure's own query or body.
      const words = operations[route.procedure ?? ''];
      if (names.length > 0) expect(words?.body ?? words?.query, key).toBeUndefined();
    }
    // A field the hand-written table had left out is now documented: the website leads' source filter.
    const matching = doc.paths['/api/admin/leads/matching'].delete.requestBody.content['application/json'];
    expect(Object.keys(matching.schema.properties.filters.properties)).toContain('source');
  });

  it('says who may call each operation: a scheme, or security: [] for anyone', async () => {
    const doc = await fetchDocument();
    for (const { key, op } of operationsOf(doc)) {
      const security = (op as { security?: unknown[] }).security;
      expect(Array.isArray(security), `${key} has no security`).toBe(true);
    }
    expect(doc.paths['/api/submit-search'].post.security).toEqual([]);
    expect(doc.paths['/api/admin/leads'].get.security).toEqual([{ adminSession: [] }]);
  });

  it("passes Redocly's recommended lint rules without an error (issue 23)", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({
      source: JSON.stringify(await fetchDocument()),
      absoluteRef: 'openapi.json',
      config,
    });
    const errors = problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(errors).toEqual([]);
  });

  it('documents the partner API well enough to integrate from it alone', async () => {
    const doc = await fetchDocument();
    const op = doc.paths['/api/partner/leads'].post;
    expect(op.security).toEqual([{ partnerKey: [] }]);
    expect(doc.components.securitySchemes.partnerKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(op.parameters.map((p: { name: string }) => p.name)).toContain('Idempotency-Key');
    expect(Object.keys(op.responses)).toEqual(
      expect.arrayContaining(['201', '400', '401', '409', '422', '429']),
    );
    expect(op.responses['400'].content['application/problem+json'].schema).toEqual({
      $ref: '#/components/schemas/Problem',
    });
    const lead = doc.components.schemas.PartnerLead;
    expect(lead.required).toEqual(
      expect.arrayContaining([
        'firstName',
        'lastName',
        'streetAddress',
        'city',
        'state',
        'phone',
        'birthMonth',
      ]),
    );
    expect(lead.additionalProperties).toBe(false);
    expect(lead.properties.phone.pattern).toBeTruthy();
    expect(op.description).toContain('24 hours');
  });
});

describe('buildOpenApiDocument', () => {
  it("answers with a procedure's .output() schema, and refuses one written again beside it", () => {
    const output = z.object({ ok: z.boolean() });
    const doc = buildOpenApiDocument([{ method: 'POST', url: '/api/csp-report', output }]);
    expect(doc.paths['/api/csp-report']?.post).toMatchObject({
      responses: {
        '204': {
          content: {
            'application/json': {
              schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
            },
          },
        },
      },
    });
    // /healthz's description writes its answer: beside an output, that is refused.
    expect(() => buildOpenApiDocument([{ method: 'GET', url: '/healthz', output }])).toThrow(
      /do not write it again/,
    );
  });

  it('documents the fields of every .input() of a procedure (tRPC merges them)', () => {
    const doc = buildOpenApiDocument([
      {
        method: 'GET',
        url: '/api/admin/audit-log',
        procedure: 'admin.auditLog',
        inputs: [z.object({ limit: z.number().int() }), z.object({ before: z.number().int().optional() })],
      },
    ]);
    const operation = doc.paths['/api/admin/audit-log']?.get as
      | { parameters: { name: string; required: boolean }[] }
      | undefined;
    const params = operation?.parameters ?? [];
    expect(params.map((p) => [p.name, p.required])).toEqual([
      ['limit', true],
      ['before', false],
    ]);
  });
});

describe('GET /api/docs', () => {
  it('renders the document as a self-contained HTML page', async () => {
    const res = await t.app.inject({ url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('POST /api/partner/leads');
    expect(res.body).toContain('id="problem-validation_error"');
    expect(res.body).not.toMatch(/<script|https?:\/\/(?!YOUR-SITE|json-schema)[^"'\s]*\.(js|css)/);
  });
});
