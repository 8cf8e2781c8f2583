import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cspDirectives } from '../src/plugins/security-headers';
import { seedAdmin, signIn } from './support/admin';
import { startTestApp, type TestApp } from './support/test-app';

// Issue 13: every response carries the security headers; admin answers are never cached.

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

function expectCommonHeaders(headers: Record<string, unknown>, label: string) {
  const csp = String(headers['content-security-policy'] ?? '');
  expect(csp, label).toContain("default-src 'self'");
  expect(csp, label).toContain("script-src 'self'");
  expect(csp, label).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(csp, label).toContain("frame-ancestors 'none'");
  expect(csp, label).toContain("object-src 'none'");
  expect(csp, label).toContain("base-uri 'self'");
  expect(csp, label).toContain("form-action 'self'");
  expect(csp, label).toContain('report-uri /api/csp-report');
  expect(headers['x-content-type-options'], label).toBe('nosniff');
  expect(headers['referrer-policy'], label).toBe('strict-origin-when-cross-origin');
  expect(headers['x-frame-options'], label).toBe('DENY');
  expect(String(headers['permissions-policy']), label).toContain('camera=()');
  expect(headers['strict-transport-security'], label).toBeUndefined(); // plain HTTP
}

describe('security headers', () => {
  it('on an HTML page, an asset, a public API answer and an admin API answer', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/' });
    expectCommonHeaders(page.headers, 'page');
    const missing = await t.app.inject({ method: 'GET', url: '/no-such-page' });
    expect(missing.statusCode).toBe(404);
    expectCommonHeaders(missing.headers, 'not-found page');
    const asset = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expectCommonHeaders(asset.headers, 'asset');
    const publicApi = await t.app.inject({
      method: 'GET',
      url: '/api/leads/11111111-2222-4333-8444-555555555555',
    });
    expectCommonHeaders(publicApi.headers, 'public api');
    expect(publicApi.headers['cache-control']).not.toBe('no-store');
    const admin = await t.app.inject({ method: 'GET', url: '/api/admin/stats', cookies });
    expect(admin.statusCode).toBe(200);
    expectCommonHeaders(admin.headers, 'admin api');
    expect(admin.headers['cache-control']).toBe('no-store');
    const exported = await t.app.inject({ method: 'GET', url: '/api/admin/export', cookies });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['cache-control']).toBe('no-store');
  });

  it('answers honest status codes: 404 page, 404 problem for unknown /api paths, 405 with Allow', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/definitely/not/here' });
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toContain('text/html');
    expect((await t.app.inject({ method: 'GET', url: '/terms' })).statusCode).toBe(200);
    const api = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(api.statusCode).toBe(404);
    expect(api.json().error).toBe('not_found');
    const wrong = await t.app.inject({ method: 'GET', url: '/api/submit-search' });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toBe('POST');
    expect(wrong.json().error).toBe('method_not_allowed');
    const wrongParam = await t.app.inject({
      method: 'POST',
      url: '/api/leads/11111111-2222-4333-8444-555555555555',
    });
    expect(wrongParam.statusCode).toBe(405);
    expect(wrongParam.headers.allow).toBe('GET');
  });

  it('sends HSTS only over HTTPS (a trusted proxy says so)', async () => {
    const proxied = await startTestApp({ TRUST_PROXY: '127.0.0.1' });
    try {
      const res = await proxied.app.inject({
        method: 'GET',
        url: '/',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    } finally {
      await proxied.close();
    }
  });

  it('adds the ad vendor and TrustedForm only when configured', () => {
    const none = cspDirectives({ trustedFormEnabled: false });
    expect(none.scriptSrc).toEqual(["'self'"]);
    const both = cspDirectives({
      adPixelScriptUrl: 'https://tags.example.com/pixel.js?id=1',
      trustedFormEnabled: true,
    });
    expect(both.scriptSrc).toEqual([
      "'self'",
      'https://tags.example.com',
      'https://api.trustedform.com',
      'https://cert.trustedform.com',
    ]);
  });

  it('takes CSP violation reports (204) and refuses anything else (400)', async () => {
    const report = await t.app.inject({
      method: 'POST',
      url: '/api/csp-report',
      headers: { 'content-type': 'application/csp-report' },
      payload: JSON.stringify({
        'csp-report': { 'violated-directive': 'script-src', 'blocked-uri': 'inline' },
      }),
    });
    expect(report.statusCode).toBe(204);
    const junk = await t.app.inject({
      method: 'POST',
      url: '/api/csp-report',
      headers: { 'content-type': 'application/csp-report' },
      payload: 'not json',
    });
    expect(junk.statusCode).toBe(400);
  });
});
