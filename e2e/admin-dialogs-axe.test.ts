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
