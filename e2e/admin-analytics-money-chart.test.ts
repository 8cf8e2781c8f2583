import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInThroughForm } from './support/admin';
import { launchBrowser, openPage } from './support/browser';

// The daily chart's money (issue 35, part 2): with "Revenue and cost" switched on, the Daily Activity chart
// shows the day's ad cost as a line on a dollar axis, named in its legend. The cost is imported on a day
// of 2020 that no other test counts, and deleted afterwards.

const DAY = '2020-01-15';
const CAMPAIGN = `E2E Chart ${Date.now().toString(36)}`;

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  ({ context, page } = await openPage(browser, '/admin/login', { viewport: { width: 1440, height: 900 } }));
  await signInThroughForm(page);
  const res = await page.request.post('/api/admin/ad-costs', {
    data: { rows: [{ date: DAY, source: 'google', campaign: CAMPAIGN, cost: 1234.5 }] },
  });
  expect(res.status()).toBe(200);
});
afterAll(async () => {
  if (page) {
    const query = new URLSearchParams({ source: 'google', campaign: CAMPAIGN, from: DAY, to: DAY });
    await page.request.delete(`/api/admin/ad-costs?${query}`);
  }
  await context?.close();
  await browser?.close();
});

describe('/admin/analytics daily chart', () => {
  it('shows revenue and ad cost per day in dollars when switched on', async () => {
    await page.goto(`/admin/analytics?startDate=${DAY}&endDate=${DAY}`);
    const api = await (await page.request.get(`/api/admin/analytics?startDate=${DAY}&endDate=${DAY}`)).json();
    expect(api.dailyMoney).toEqual([{ date: DAY, revenue: 0, net: 0, cost: 1234.5 }]);

    const chart = page.getByRole('figure', { name: 'Daily Activity' });
    await page.getByRole('heading', { name: 'Daily Activity' }).waitFor();
    await expect.poll(() => chart.getByText('Ad Cost').count()).toBe(0);
    await page.getByRole('switch', { name: 'Revenue and cost' }).check();
    await chart.getByText('Net revenue (after returns)').waitFor();
    await chart.getByText('Ad Cost').waitFor();
    // The right-hand axis counts dollars: its top tick is above the day's $1,234.50.
    await expect
      .poll(async () =>
        (await chart.locator('.recharts-yAxis text').allTextContents()).some((t) => /^\$1,[0-9]{3}$/.test(t)),
      )
      .toBe(true);
    await page.getByRole('switch', { name: 'Revenue and cost' }).uncheck();
    await expect.poll(() => chart.getByText('Ad Cost').count()).toBe(0);
  });
});
