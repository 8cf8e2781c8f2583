import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_ADMIN } from './support/admin';
import { gotoReady, launchBrowser, networkQuiet, openPage } from './support/browser';
import { submitAsVisitor, visitorLead } from './support/visitor';

// Issue 37 (finding 8): at 1440×900 the default columns were 1,491 px in a 1,366 px box and the pinned
// row actions covered "Created At (ET)"; a one-letter search answered "Failed to fetch leads"; an end date
// before the start date answered "No leads found" with no hint.

let browser: Browser;
let page: Page;
const LAST_NAME = `Fitwidth-Abernathy${Date.now() % 100_000}`;

beforeAll(async () => {
  browser = await launchBrowser();
  ({ page } = await openPage(browser, '/admin/login', { viewport: { width: 1440, height: 900 } }));
  // A lead with typical long values: a double-barrelled name, a long mailbox and street.
  const answer = await submitAsVisitor(
    page.request,
    visitorLead({
      firstName: 'Margaret-Anne',
      lastName: LAST_NAME,
      email: `margaret.anne.${LAST_NAME.toLowerCase()}@outlook.com`,
      streetAddress: '12345 North Riverside Boulevard Apt 1204',
    }),
  );
  expect(answer.status()).toBe(200);
  await gotoReady(page, '/admin/login');
  await page.getByLabel('Username').fill(E2E_ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL('**/admin/leads');
});
afterAll(async () => {
  await browser?.close();
});

const website = () => page.getByRole('region', { name: 'Website leads' });

describe('the website leads table at 1440×900 (issue 37)', () => {
  it('fits its box with the default columns, Created At whole and clear of the pinned actions', async () => {
    await website().getByRole('searchbox', { name: 'Search' }).fill(LAST_NAME);
    await page.getByRole('heading', { name: 'Leads Data (1 records)', exact: true }).waitFor();
    await networkQuiet(page);
    const table = website().getByRole('table').first();
    const fit = await table.evaluate((el) => {
      const box =
        el.closest('.mantine-ScrollArea-viewport, .mantine-Table-scrollContainer') ?? el.parentElement;
      const rowCells = Array.from(el.querySelectorAll('tbody tr:first-child td'));
      const headers = Array.from(el.querySelectorAll('thead th'));
      const created = headers.findIndex((th) => /^Created At/.test(th.textContent ?? ''));
      const actions = headers.at(-1) as Element;
      const createdCell = rowCells[created] as HTMLElement;
      return {
        overflow: (box as Element).scrollWidth - (box as Element).clientWidth,
        created,
        createdRight: Math.round(headers[created]?.getBoundingClientRect().right ?? 0),
        actionsLeft: Math.round(actions.getBoundingClientRect().left),
        createdCellCut: createdCell.scrollWidth > createdCell.clientWidth,
      };
    });
    expect(fit.created).toBeGreaterThan(0);
    expect(fit.overflow).toBeLessThanOrEqual(0);
    // Adjacent cells share an edge: a pixel of rounding either way.
    expect(fit.createdRight).toBeLessThanOrEqual(fit.actionsLeft + 1);
    expect(fit.createdCellCut).toBe(false);
  });

  it('a one-letter search and an inverted date range say why, instead of failing or finding nothing', async () => {
    const search = website().getByRole('searchbox', { name: 'Search' });
    await search.fill('M');
    await website().getByText('Type at least 2 characters to search').waitFor();
    await networkQuiet(page);
    expect(await page.getByText('Failed to fetch leads').count()).toBe(0);
    await search.fill('');

    await website().getByLabel('Start Date').fill('2026-03-10');
    await website().getByLabel('End Date').fill('2026-03-01');
    await website().getByText('End date is before start date').waitFor();
    await networkQuiet(page);
    expect(await page.getByText('Failed to fetch leads').count()).toBe(0);
    expect(await website().getByLabel('End Date').getAttribute('aria-invalid')).toBe('true');
  });
});
