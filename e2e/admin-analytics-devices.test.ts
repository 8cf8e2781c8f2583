import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, gotoReady, launchBrowser } from './support/browser';

// Issue 26 in Chromium: a visit made on a phone shows as a phone (Mobile, Safari, iOS) in the dashboard's
// device breakdowns, narrowed by the Country filter like the rest, and "Download CSV" saves what the page
// shows. Other test files share the server: this one's visit comes from a country only it sends.

const ADMIN = { username: 'e2e-admin', password: 'e2e-password-123' };
const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const COUNTRY = 'FJ';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('device breakdowns, in the browser', () => {
  it('shows a visit made with a phone user agent as a phone, and downloads the CSV of the view', async () => {
    const phone = await browser.newContext({
      baseURL: baseUrl(),
      userAgent: IPHONE_UA,
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      extraHTTPHeaders: { 'cf-ipcountry': COUNTRY },
    });
    const visit = await phone.newPage();
    const tracked = visit.waitForResponse((r) => r.url().endsWith('/api/analytics/track') && r.ok());
    await visit.goto('/');
    await tracked;
    await phone.close();

    const admin = await browser.newContext({ baseURL: baseUrl(), acceptDownloads: true });
    expect((await admin.request.post('/api/admin/login', { data: ADMIN })).status()).toBe(200);
    const dash = await admin.newPage();
    await gotoReady(dash, `/admin/analytics?country=${COUNTRY}`);
    const devices = dash.getByTestId('device-types');
    await devices.waitFor();
    const rows = async (id: string) =>
      (await dash.getByTestId(id).locator('tbody tr').allTextContents()).map((t) => t.trim());
    await expect.poll(() => rows('device-types')).toEqual(['Mobile1100%']);
    expect(await rows('browsers')).toEqual(['Safari1100%']);
    expect(await rows('operating-systems')).toEqual(['iOS1100%']);
    await dash.getByTestId('leads-without-visit').waitFor();

    const [download] = await Promise.all([
      dash.waitForEvent('download'),
      dash.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^analytics-\d{4}-\d{2}-\d{2}\.csv$/);
    const file = await download.path();
    const csv = await readFile(file, 'utf8');
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('section,name,metric,value');
    expect(lines).toContain(`filter,country,,${COUNTRY}`);
    expect(lines).toContain('deviceType,mobile,visits,1');
    expect(lines).toContain('browser,Safari,visits,1');
    expect(lines).toContain('os,iOS,visits,1');
    expect(lines).toContain('summary,Total Page Views,count,1');
    await admin.close();
  });
});
