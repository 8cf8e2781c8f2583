import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInThroughForm } from './support/admin';
import { expectNoAxeViolations } from './support/axe';
import { launchBrowser, openPage } from './support/browser';

// The sources table's money where an operator looks for it (issue 49 items 4 and 5; issue 47's words): at
// 1440 × 900 its Money view shows Sold, Returned, Revenue, Net, Cost, Profit, ROI, EPV and Cost / Accepted
// without scrolling — every header inside the viewport, the document no wider than it — and at 390 × 844
// the page never overflows (the table scrolls in its own box). A campaign bought and never tagged on a
// day of 2020 that no other test counts gives the table its row; its cost is deleted afterwards.

const DAY = '2020-02-12';
const CAMPAIGN = `E2E Money ${Date.now().toString(36)}`;
const MONEY_HEADERS = [
  'Sold',
  'Returned',
  'Revenue',
  'Net',
  'Cost',
  'Profit',
  'ROI',
  'EPV',
  'Cost / Accepted',
];

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

/** How far the document is wider than the viewport (0: no horizontal scrolling). */
const overflow = (p: Page) => p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('/admin/analytics sources table, Money view', () => {
  it('at 1440 × 900 shows every money column without scrolling, in the words of ADR 073', async () => {
    await page.goto(`/admin/analytics?startDate=${DAY}&endDate=${DAY}`);
    const sources = page.getByRole('region', { name: 'Sources' });
    await sources.getByTestId('sources-table').waitFor();
    await sources
      .locator('label')
      .filter({ hasText: /^Money$/ })
      .click();
    const table = sources.locator('[data-testid="sources-table"][data-view="money"]');
    await table.waitFor();
    for (const name of MONEY_HEADERS) {
      const header = table.getByRole('columnheader', { name: new RegExp(`^${name}( [↑↓])?$`) });
      const box = await header.boundingBox();
      expect(box, name).not.toBeNull();
      expect((box?.x ?? 0) + (box?.width ?? 0), `${name} inside the viewport`).toBeLessThanOrEqual(1440);
    }
    expect(await overflow(page)).toBe(0);
    // The campaign's row: nothing sold, its cost, a loss; a figure without meaning is blank.
    const row = table.getByRole('row').filter({ hasText: CAMPAIGN });
    await expect
      .poll(async () => (await row.getByRole('cell').allTextContents()).map((c) => c.trim()))
      .toEqual([
        'Paid Search',
        'google',
        CAMPAIGN,
        '0',
        '0',
        '0',
        '0',
        '$0.00',
        '$0.00',
        '$1,234.50',
        '-$1,234.50',
        '-100%',
        '',
        '',
      ]);
    await sources.getByText(/All sources: 0 sold, 0 returned; revenue \$0\.00, net \$0\.00/).waitFor();
    // Issue 49: what makes consent valid is said on the page, with the case that surprised an operator.
    await sources
      .getByText(/^Valid consent: the lead gave consent, its consent receipt is complete/)
      .waitFor();
    await sources.getByText(/without pageUrl or a Referer header has consent but no page address/).waitFor();
    await expectNoAxeViolations(page);
  });

  it('at 390 × 844 never widens the page, in either view', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/admin/analytics?startDate=${DAY}&endDate=${DAY}`);
    const sources = page.getByRole('region', { name: 'Sources' });
    await sources.getByTestId('sources-table').waitFor();
    expect(await overflow(page)).toBe(0);
    await sources
      .locator('label')
      .filter({ hasText: /^Money$/ })
      .click();
    await sources.locator('[data-testid="sources-table"][data-view="money"]').waitFor();
    expect(await overflow(page)).toBe(0);
    await page.setViewportSize({ width: 1440, height: 900 });
  });
});
