import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseHeaderAction, E2E_ADMIN, signInThroughForm } from './support/admin';
import { axeViolations, describeViolations } from './support/axe';
import { baseUrl, gotoReady, launchBrowser, networkQuiet, uniqueEmail } from './support/browser';

// Issue 37 (finding 12): axe on every admin dialog, opened, at 1440×900 — the ✕ of five dialogs had no
// accessible name (critical), the Audit Log's scroll area could not be reached with the keyboard.

let browser: Browser;
let page: Page;
const LAST_NAME = 'Dialogaxe';

beforeAll(async () => {
  browser = await launchBrowser();
  const res = await fetch(`${baseUrl()}/api/submit-search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      firstName: 'Dee',
      lastName: LAST_NAME,
      streetAddress: '1 Axe Rd',
      zipCode: '59001',
      email: uniqueEmail('dialog-axe'),
      phone: '(406) 555-0100',
      birthMonth: '3',
      birthDay: '3',
      birthYear: '1950',
      consentGiven: 'true',
    }),
  });
  expect(res.status).toBe(200);
  // Enough audit entries (a sign-in each) for the Audit Log's list to scroll.
  for (let i = 0; i < 25; i++) {
    const signIn = await fetch(`${baseUrl()}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: baseUrl() },
      body: JSON.stringify(E2E_ADMIN),
    });
    expect(signIn.status).toBe(200);
  }
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
  page = await context.newPage();
  await gotoReady(page, '/admin/login');
  await signInThroughForm(page);
  await page.getByRole('heading', { name: /^Leads Data \(\d+ records\)$/ }).waitFor();
});
afterAll(async () => {
  await browser?.close();
});

async function expectDialogClean(name: string) {
  const dialog = page.getByRole('dialog', { name });
  await dialog.waitFor();
  await networkQuiet(page);
  try {
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    // The ✕ has a name: found by it.
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  } finally {
    // Closed either way, so that one dialog's failure does not hide the next one's.
    if (await dialog.isVisible()) await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  }
}

describe('admin dialogs, opened, at 1440×900', () => {
  it.each(['Backups', 'Webhooks', 'Data Requests', 'Audit Log'])('%s: axe finds nothing', async (label) => {
    await chooseHeaderAction(page, label);
    await expectDialogClean(label === 'Data Requests' ? 'Data requests' : label);
  });

  it('the row delete confirmation: axe finds nothing', async () => {
    await page.getByRole('button', { name: `Delete lead Dee ${LAST_NAME}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const name = (await dialog.getAttribute('aria-labelledby'))
      ? ((await page.locator(`#${await dialog.getAttribute('aria-labelledby')}`).textContent()) ?? '')
      : '';
    await expectDialogClean(name);
  });
});

// Every other dialog of the admin area, opened the way an admin opens it: the consent receipt, the bulk
// delete, the nested confirmations of Backups and Webhooks, the Webhooks form with the server's refusal beside
// its URL and the new secret, and the Buyers screen's delete (issues 34–35 came after the first list).
describe('the other admin dialogs, opened, at 1440×900', () => {
  const website = () => page.getByRole('region', { name: 'Website leads' });
  const row = () => website().getByRole('row').filter({ hasText: LAST_NAME });

  it('the consent receipt (from the Certification ID): axe finds nothing', async () => {
    await website().getByRole('searchbox', { name: 'Search' }).fill(LAST_NAME);
    await page.getByRole('heading', { name: 'Leads Data (1 records)', exact: true }).waitFor();
    await website()
      .getByRole('button', { name: /^Columns: \d+ of \d+$/ })
      .click();
    await page.getByRole('menuitemcheckbox', { name: 'Certification ID' }).click();
    await page.keyboard.press('Escape');
    await row()
      .getByRole('button', { name: /^[0-9a-f-]{36}$/ })
      .click();
    await page.getByRole('dialog', { name: 'Consent receipt' }).getByText('Consent given').waitFor();
    await expectDialogClean('Consent receipt');
  });

  it('the bulk delete confirmation: axe finds nothing', async () => {
    await row()
      .getByRole('checkbox', { name: `Select lead Dee ${LAST_NAME}` })
      .check();
    await page.getByRole('button', { name: 'Delete Selected (1)' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const title = (await dialog.locator('.mantine-Modal-title').textContent()) ?? '';
    await expectDialogClean(title);
    await row()
      .getByRole('checkbox', { name: `Select lead Dee ${LAST_NAME}` })
      .uncheck();
  });

  it("Backups' delete confirmation: axe finds nothing", async () => {
    const made = page.locator('.mantine-Notification-root').filter({ hasText: 'Backup' });
    await chooseHeaderAction(page, 'Backup Database');
    await made.filter({ hasText: /\.(?:dump|sql\.gz)/ }).waitFor({ timeout: 30_000 });
    await chooseHeaderAction(page, 'Backups');
    const backups = page.getByRole('dialog', { name: 'Backups' });
    await backups
      .getByRole('button', { name: /^Delete / })
      .first()
      .click();
    await expectDialogClean('Delete backup');
    await expectDialogClean('Backups');
  });

  it('Webhooks: the form with a refused URL, the new secret, the delete confirmation: axe finds nothing', async () => {
    await chooseHeaderAction(page, 'Webhooks');
    const dialog = page.getByRole('dialog', { name: 'Webhooks' });
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    const url = dialog.getByLabel('URL');
    await url.fill('not a url');
    await dialog.getByRole('button', { name: 'Create endpoint' }).click();
    await dialog.locator('[aria-invalid="true"]').waitFor();
    await networkQuiet(page);
    expect(describeViolations(await axeViolations(page))).toEqual([]);

    const endpoint = `http://127.0.0.1:9/axe-${Date.now()}`;
    await url.fill(endpoint);
    await dialog.getByRole('button', { name: 'Create endpoint' }).click();
    await dialog.getByTestId('webhook-secret').waitFor();
    await networkQuiet(page);
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await dialog.getByRole('button', { name: 'Done' }).click();

    await dialog
      .getByRole('row')
      .filter({ hasText: endpoint })
      .getByRole('button', { name: 'Delete', exact: true })
      .click();
    await expectDialogClean('Delete endpoint');
    await expectDialogClean('Webhooks');
  });

  it("the Buyers screen's delete confirmation: axe finds nothing", async () => {
    const name = `E2E Axe Buyer ${Date.now()}`;
    const created = await page.request.post('/api/admin/buyers', {
      data: {
        name,
        status: 'paused',
        priority: 90,
        price: 1,
        delivery: { kind: 'email', to: ['axe@buyer.example'] },
        fields: [{ to: 'Name', from: 'firstName' }],
        responseRules: [],
      },
    });
    expect(created.status()).toBe(201);
    await page.goto('/admin/buyers');
    await page
      .getByRole('table', { name: 'Buyers in waterfall order' })
      .getByRole('button', { name: `Delete ${name}` })
      .click();
    await expectDialogClean('Delete buyer');
  });
});
