import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restRoutesOf } from '../src/rest/rest-routes';
import { createAppRouter } from '../src/trpc/router';
import { seedAdmin, signIn } from './support/admin';
import { insertApiLead, insertWebsiteLead } from './support/leads';
import { rawRequest } from './support/raw-http';
import { startTestApp, type TestApp } from './support/test-app';

const restRoutes = restRoutesOf(createAppRouter({ supportEmail: 'support@example.com' }));

// Issue 22, finding 1: the Origin check tested the raw URL for `/api/`, the router decoded `%61` to `a`,
// so `DELETE /%61pi/admin/leads/<id>` with an admin cookie and a foreign Origin deleted the lead (and a
// backup was made the same way), and those answers lacked `Cache-Control: no-store`. Every admin
// mutation, through every spelling of its path, with a foreign Origin: 403 or 404, nothing changed, and
// every answer no-store. Real HTTP (node:http sends the path as written; inject would normalise it).

let t: TestApp;
let base: string;
let cookie: string;
let leadId: string;
let apiLeadId: string;

beforeAll(async () => {
  t = await startTestApp();
  await seedAdmin(t.app);
  const cookies = await signIn(t.app);
  cookie = `uf_admin=${cookies.uf_admin}`;
  leadId = (await insertWebsiteLead(t.app.db.pool)).id;
  apiLeadId = (await insertApiLead(t.app.db.pool)).id;
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t?.close();
});

/** The spellings of one path that a router or a proxy might take for it. */
function variants(path: string): string[] {
  const rest = path.slice('/api/'.length);
  return [
    path.replace('/api/', '/%61pi/'),
    path.replace('/api/admin/', '/api/%61dmin/'),
    path.replace('/api/', '/%61%70%69/'),
    path.replace('/api/', '//api/'),
    `/api//${rest}`,
    path.replace('/api/', '/api/./'),
    path.replace('/api/', '/x/../api/'),
    path.replace('/api/', '/api/x/../'),
    path.replace('/api/', '/API/'),
    path.replace('/api/admin/', '/api/Admin/'),
    path,
  ];
}

describe('admin mutations through every spelling of their path, from a foreign Origin', () => {
  it('are refused (403, or 404 for a path no route has), change nothing, and answer no-store', async () => {
    const mutations: { method: string; path: string; body?: string }[] = [
      ...restRoutes
        .filter((r) => r.method !== 'GET' && r.url.startsWith('/api/admin/'))
        .map((r) => ({
          method: r.method,
          path: r.url
            .replace('/leads/:id', `/leads/${leadId}`)
            .replace('/api-leads/:id', `/api-leads/${apiLeadId}`),
          body: r.method === 'POST' || r.method === 'DELETE' ? JSON.stringify({ ids: [leadId] }) : undefined,
        })),
      { method: 'POST', path: '/api/trpc/admin.leads.remove', body: JSON.stringify({ id: leadId }) },
      { method: 'POST', path: '/api/trpc/admin.apiLeads.remove', body: JSON.stringify({ id: apiLeadId }) },
      { method: 'POST', path: '/api/trpc/admin.backup' },
    ];
    expect(mutations.length).toBeGreaterThanOrEqual(10);
    const seen: string[] = [];
    for (const m of mutations) {
      for (const path of variants(m.path)) {
        const res = await rawRequest(base, {
          method: m.method,
          path,
          headers: { cookie, origin: 'https://evil.example' },
          body: m.body,
        });
        seen.push(`${m.method} ${path} → ${res.status}`);
        expect([403, 404], `${m.method} ${path}: ${res.status} ${res.body}`).toContain(res.status);
        expect(res.headers['cache-control'], `${m.method} ${path}`).toBe('no-store');
        expect(JSON.parse(res.body)).toHaveProperty('error');
      }
    }
    // The decoded spellings reach the route itself: those are the ones the Origin check must stop.
    expect(seen).toContain(`DELETE /%61pi/admin/leads/${leadId} → 403`);

    const pool = t.app.db.pool;
    expect((await pool.query('select 1 from website_lead where id = $1', [leadId])).rowCount).toBe(1);
    expect((await pool.query('select 1 from api_lead where id = $1', [apiLeadId])).rowCount).toBe(1);
    const audit = await pool.query(
      "select action from audit_log where action not in ('admin.sign_in', 'admin.sign_in_failed')",
    );
    expect(audit.rows).toEqual([]);
  });

  it('the same admin, same site: answers carry no-store, including reads through a decoded path', async () => {
    const host = new URL(base).host;
    const stats = await rawRequest(base, {
      method: 'GET',
      path: '/%61pi/admin/stats',
      headers: { cookie },
    });
    expect(stats.status).toBe(200);
    expect(stats.headers['cache-control']).toBe('no-store');
    const trpc = await rawRequest(base, {
      method: 'GET',
      path: '/api/trpc/admin.leads.stats',
      headers: { cookie },
    });
    expect(trpc.status).toBe(200);
    expect(trpc.headers['cache-control']).toBe('no-store');
    // A same-site mutation still works (the check is on the Origin, not on the spelling).
    const removed = await rawRequest(base, {
      method: 'DELETE',
      path: `/api/admin/api-leads/${apiLeadId}`,
      headers: { cookie, origin: `http://${host}` },
    });
    expect(removed.status).toBe(200);
    expect(removed.headers['cache-control']).toBe('no-store');
  });
});
