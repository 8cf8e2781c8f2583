import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { chooseHeaderAction, signInThroughForm } from './support/admin';
import { expectNoAxeViolations } from './support/axe';
import { launchBrowser, openPage } from './support/browser';

// Ad cost on screen (issue 35): the Ad costs screen from the dashboard's More actions, a Google Ads campaign
// report uploaded as downloaded (preamble, header, rows, Total lines), its days in the table with the total,
// a day entered by hand, and that day deleted after a confirmation. Screenshots (1440×900) go to
// test-results/admin-costs/ (git-ignored) to be looked at.

const VIEWPORT = { width: 1440, height: 900 };
const SCREENSHOTS = path.resolve(import.meta.dirname, '../test-results/admin-costs');

const stamp = Date.now().toString(36);
const CAMPAIGN = `E2E Spring ${stamp}`;
const BRAND = `E2E Brand, Exact ${stamp}`;
const BY_HAND = `E2E By hand ${stamp}`;

/** YYYY-MM-DD `days` before today (UTC): a few days back stays inside the screen's last 30 business days. */
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
const DAY1 = daysAgo(4);
const DAY2 = daysAgo(3);

const GOOGLE_REPORT = [
  'Campaign report',
  `"${DAY1} - ${DAY2}"`,
  'Day,Campaign,Campaign status,Currency code,Cost,Clicks',
  `${DAY1},${CAMPAIGN},Enabled,USD,120.50,40`,
  `${DAY1},"${BRAND}",Enabled,USD,"1,204.07",310`,
  `${DAY2},${CAMPAIGN},Enabled,USD,99.99,35`,
  'Total: Account,--,--,USD,"1,424.56",385',
].join('\r\n');

let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  ({ context, page } = await openPage(browser, '/admin/login', { viewport: VIEWPORT }));
  await signInThroughForm(page);
});
afterAll(async () => {
  // This file's costs must not count in later tests' figures.
  if (page) {
    for (const campaign of [CAMPAIGN, BRAND, BY_HAND]) {
      const query = new URLSearchParams({ source: 'google', campaign, from: daysAgo(40), to: daysAgo(-2) });
      await page.request.delete(`/api/admin/ad-costs?${query}`);
    }
  }
  await context?.close();
  await browser?.close();
});

const table = () => page.getByRole('table', { name: 'Imported ad costs' });
const rowOf = (campaign: string, day: string) =>
  table().getByRole('row').filter({ hasText: campaign }).filter({ hasText: day });

describe('ad cost on screen', () => {
  it('opens from More actions and says what is recognised', async () => {
    await chooseHeaderAction(page, 'Ad costs');
    await page.waitForURL('**/admin/costs');
    await page.getByRole('heading', { level: 1, name: 'Ad costs' }).waitFor();
    await page.getByText('Google Ads (Day, Campaign, Cost)', { exact: false }).waitFor();
    await page
      .getByText('Microsoft Advertising (TimePeriod, CampaignName, Spend)', { exact: false })
      .waitFor();
    await page
      .getByText('Meta Ads Manager (Reporting starts, Campaign name, Amount spent (USD))', {
        exact: false,
      })
      .waitFor();
    // Either the table or the empty state, once loaded.
    await page.getByText('No ad cost in these days.').or(table()).waitFor();
    await expectNoAxeViolations(page);
  });

  it('imports a Google Ads report and shows its days with the total', async () => {
    await page.getByLabel('Report file').setInputFiles({
      name: 'campaign-report.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(GOOGLE_REPORT),
    });
    await page.getByRole('button', { name: 'Import report' }).click();
    const done = page.getByRole('status').filter({ hasText: 'Import done' });
    await done.getByText('3 rows imported, 0 replaced. A row is one campaign’s cost on one day.').waitFor();

    await rowOf(CAMPAIGN, DAY1).getByText('$120.50').waitFor();
    await rowOf(BRAND, DAY1).getByText('$1,204.07').waitFor();
    await rowOf(CAMPAIGN, DAY2).getByText('$99.99').waitFor();
    await table()
      .getByRole('rowheader', { name: /^Total/ })
      .waitFor();

    // The same file again replaces its days.
    await page.getByRole('button', { name: 'Import report' }).click();
    await done.getByText('0 rows imported, 3 replaced. A row is one campaign’s cost on one day.').waitFor();
    await expectNoAxeViolations(page);
  });

  it("shows the server's words for a file it cannot read", async () => {
    await page.getByLabel('Report file').setInputFiles({
      name: 'other.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('Name,Amount\nx,1\n'),
    });
    await page.getByRole('button', { name: 'Import report' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Not imported' })
      .getByText(/cannot be read/)
      .waitFor();
  });

  it('lists the lines it merged, and every line a row would refuse (issue 47)', async () => {
    const spelledTwice = [
      'Day,Campaign,Currency code,Cost',
      `${DAY1},${CAMPAIGN},USD,100.00`,
      `${DAY1},${CAMPAIGN.toUpperCase()} ,USD,20.50`,
    ].join('\n');
    await page.getByLabel('Report file').setInputFiles({
      name: 'twice.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(spelledTwice),
    });
    await page.getByRole('button', { name: 'Import report' }).click();
    const done = page.getByRole('status').filter({ hasText: 'Import done' });
    await done
      .getByText(
        '0 rows imported, 1 replaced, 2 lines merged into 1 row. A row is one campaign’s cost on one day.',
      )
      .waitFor();
    await done
      .getByRole('list', { name: 'Merged lines' })
      .getByText(
        `Lines 2, 3: one row for ${DAY1}, google / ${CAMPAIGN} (case and spaces aside), $120.50 in all`,
      )
      .waitFor();
    await rowOf(CAMPAIGN, DAY1).getByText('$120.50').waitFor();

    const bad = [
      'Day,Campaign,Currency code,Cost',
      `${DAY1},${CAMPAIGN},USD,1.005`,
      `${DAY2},${CAMPAIGN},USD,"99,999,999,999"`,
    ].join('\n');
    await page.getByLabel('Report file').setInputFiles({
      name: 'bad.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(bad),
    });
    await page.getByRole('button', { name: 'Import report' }).click();
    const refused = page.getByRole('alert').filter({ hasText: 'Not imported' });
    const lines = refused.getByRole('list', { name: 'Lines refused' });
    await lines.getByText(/^line 2: "1\.005" has more than 2 decimals/).waitFor();
    await lines.getByText(/^line 3: "99,999,999,999" is more than \$10,000,000\.00/).waitFor();
    await expectNoAxeViolations(page);
  });

  it('adds a day by hand and deletes it after a confirmation', async () => {
    await page.getByRole('textbox', { name: /^Date/ }).fill(DAY2);
    await page.getByRole('combobox', { name: 'Source', exact: true }).fill('google');
    await page.getByRole('textbox', { name: 'Campaign', exact: true }).fill(BY_HAND);
    await page.getByRole('textbox', { name: 'Cost (USD)' }).fill('42.10');
    await page.getByRole('button', { name: 'Add day' }).click();
    await rowOf(BY_HAND, DAY2).getByText('$42.10').waitFor();
    await page.screenshot({
      path: path.join(SCREENSHOTS, 'costs-1440x900.png'),
      fullPage: true,
      animations: 'disabled',
    });

    await rowOf(BY_HAND, DAY2)
      .getByRole('button', { name: `Delete google ${BY_HAND} on ${DAY2}` })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Delete ad cost' });
    await dialog.getByText(`the campaign “${BY_HAND}” of google on ${DAY2}`, { exact: false }).waitFor();
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await rowOf(BY_HAND, DAY2).waitFor({ state: 'detached' });
    await rowOf(CAMPAIGN, DAY2).waitFor();
  });
});
