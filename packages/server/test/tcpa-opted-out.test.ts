import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAdmin, signIn } from './support/admin';
import { BROWSER_UA } from './support/analytics';
import { leadBody } from './support/fixtures';
import { startTestApp, type TestApp } from './support/test-app';

// Issue 37 (finding 7): an opted-out lead showed a green TCPA "Compliant" badge beside "Opted out" — a
// caller scanning badges could dial someone who withdrew consent. The badge follows tcpaCompliant
// (spec §4: 'Compliant' only when it is 'true'), so the admin's tcpaCompliant of an opted-out lead is
// 'false': consent given once is no permission to call after it was withdrawn.

let t: TestApp;
let cookies: Record<string, string>;
beforeAll(async () => {
  t = await startTestApp();
  await seedAdmin(t.app);
  cookies = await signIn(t.app);
});
afterAll(async () => {
  await t?.close();
});

async function adminRow(id: string) {
  const res = await t.app.inject({ method: 'GET', url: '/api/admin/leads', cookies });
  expect(res.statusCode).toBe(200);
  return (res.json() as { id: string; tcpaCompliant: string; optedOut: boolean }[]).find((r) => r.id === id);
}

describe('the TCPA field of an opted-out lead', () => {
  it("reads 'false' once the lead opted out, in the list and the CSV export", async () => {
    // Complete consent evidence (text, address, browser, page): a compliant lead to begin with.
    const lead = leadBody({ pageUrl: 'https://example.org/' });
    const submitted = await t.app.inject({
      method: 'POST',
      url: '/api/submit-search',
      payload: lead,
      headers: { 'user-agent': BROWSER_UA },
    });
    const { id } = submitted.json();
    expect(await adminRow(id)).toMatchObject({ tcpaCompliant: 'true', optedOut: false });

    const out = await t.app.inject({
      method: 'POST',
      url: '/api/unsubscribe',
      payload: { email: lead.email },
    });
    expect(out.statusCode).toBe(200);
    expect(await adminRow(id)).toMatchObject({ tcpaCompliant: 'false', optedOut: true });

    const csv = await t.app.inject({ method: 'GET', url: '/api/admin/export', cookies });
    const [header, ...lines] = csv.body.trim().split('\n');
    const columns = (header ?? '').split(',');
    const row = lines.find((l) => l.includes(id))?.split(',') ?? [];
    expect(row[columns.indexOf('tcpaCompliant')]).toBe('false');
  });
});
