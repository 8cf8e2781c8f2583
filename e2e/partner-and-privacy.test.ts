import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chooseHeaderAction } from './support/admin';
import { baseUrl, launchBrowser, openPage, uniqueEmail } from './support/browser';
import { fillLeadForm, validLead } from './support/lead-form';

// Issue 6 in the browser: a partner's lead reaches the admin API-leads table; an admin opens a
// lead's consent receipt and answers a data subject request (look up, export, delete).

const ADMIN = { username: 'e2e-admin', password: 'e2e-password-123' };
const root = path.resolve(import.meta.dirname, '..');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function signedInPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl(), acceptDownloads: true });
  const login = await context.request.post('/api/admin/login', { data: ADMIN });
  expect(login.status()).toBe(200);
  const page = await context.newPage();
  await page.goto('/admin/leads');
  return { context, page };
}

const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

// Keys are issued with the operator CLI against the server's database; with the embedded database the
// running server holds its lock, so this needs the PostgreSQL of DATABASE_URL (as CI has).
describe.skipIf(!inject('e2eDatabaseUrl'))('partner API → admin dashboard', () => {
  it('shows a lead posted with a CLI-issued API key in the API leads table', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [path.join(root, 'packages/server/dist/cli.js'), 'api-key:create', 'E2E Partner'],
      { cwd: root, env: { ...process.env, DATABASE_URL: inject('e2eDatabaseUrl') ?? '', LOG_LEVEL: 'warn' } },
    );
    const key = /ufk_[A-Za-z0-9_-]+/.exec(stdout)?.[0];
    expect(key, stdout).toBeTruthy();

    const lastName = unique('Partnerlead');
    const res = await fetch(`${baseUrl()}/api/partner/leads`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${key}`,
        'idempotency-key': crypto.randomUUID(),
      },
      body: JSON.stringify({
        firstName: 'Pat',
        lastName,
        streetAddress: '9 Partner Way',
        city: 'Boise',
        state: 'ID',
        phone: '(208) 555-0142',
        birthMonth: 3,
        birthDay: 9,
        birthYear: 1975,
        beneficiary: 'Estate',
      }),
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };

    const { context, page } = await signedInPage();
    const apiSection = page.getByRole('region', { name: 'API Leads' });
    const row = apiSection.getByRole('row').filter({ hasText: lastName });
    await row.waitFor();
    await row.getByText('Boise').waitFor();
    // The id is not among the default columns; the lead's drawer shows it.
    await row.getByRole('button', { name: `View API lead Pat ${lastName}` }).click();
    await page
      .getByRole('dialog', { name: `API lead Pat ${lastName}` })
      .getByText(id)
      .waitFor();
    await context.close();
  });
});

describe('consent evidence from the landing form', () => {
  it('writes a complete receipt for a lead submitted in the browser: page URL, browser, IP, exact text', async () => {
    const email = uniqueEmail('receipt');
    const { context, page } = await openPage(browser, '/?utm_source=e2e-receipt');
    await fillLeadForm(page, validLead(email));
    await page.getByRole('button', { name: 'Search Now' }).click();
    await page.getByRole('dialog', { name: 'Who is your beneficiary?' }).waitFor();
    await context.close();

    const admin = await browser.newContext({ baseURL: baseUrl() });
    expect((await admin.request.post('/api/admin/login', { data: ADMIN })).status()).toBe(200);
    const found = await (
      await admin.request.post('/api/admin/data-requests/lookup', { data: { email } })
    ).json();
    await admin.close();
    const [lead] = found.websiteLeads;
    const [receipt] = found.consentReceipts;
    expect(receipt).toMatchObject({
      id: lead.certificationId,
      consentGiven: true,
      pageUrl: `${baseUrl()}/?utm_source=e2e-receipt`,
      userAgent: expect.stringContaining('Chrome'),
      ipAddress: '127.0.0.1',
      consentText: expect.stringContaining('Reply STOP to stop, HELP for help'),
    });
    expect(lead.tcpaCompliant).toBe('true');
  });
});

describe('consent receipt and data subject requests in the dashboard', () => {
  it('opens the receipt from the lead row, then exports and deletes the person’s records', async () => {
    const email = uniqueEmail('dsr');
    const lastName = unique('Receipt');
    const submitted = await fetch(`${baseUrl()}/api/submit-search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'E2E Browser/1.0', 'sec-gpc': '1' },
      body: JSON.stringify({
        firstName: 'Rita',
        lastName,
        streetAddress: '1 Main St',
        zipCode: '83702',
        email,
        phone: '(208) 555-0177',
        birthMonth: '7',
        birthDay: '4',
        birthYear: '1965',
        consentGiven: 'true',
        pageUrl: 'https://unclaimedfundsfinder.example/?utm_source=e2e',
      }),
    });
    expect(submitted.status).toBe(200);

    const { context, page } = await signedInPage();
    const websiteSection = page.getByRole('region', { name: 'Website leads' });
    const row = websiteSection.getByRole('row').filter({ hasText: lastName });
    await row.waitFor();
    // One click on the row: the lead whole, with its Do Not Sell flag and its consent receipt.
    await row.getByRole('cell', { name: lastName, exact: true }).click();
    const drawer = page.getByRole('dialog', { name: `Lead Rita ${lastName}` });
    await drawer.getByTitle('Global Privacy Control: do not sell or share').waitFor();
    await drawer.getByText('https://unclaimedfundsfinder.example/?utm_source=e2e').waitFor();
    await drawer.getByText(/Reply STOP to stop, HELP for help/).waitFor();
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });

    // The Certification ID column (not among the default columns) opens the receipt from the row.
    await websiteSection.getByRole('button', { name: /^Columns: \d+ of \d+$/ }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Certification ID' }).click();
    await page.keyboard.press('Escape');
    await row.getByRole('button', { name: /^[0-9a-f-]{36}$/ }).click();
    const receipt = page.getByRole('dialog', { name: 'Consent receipt' });
    await receipt.getByText('https://unclaimedfundsfinder.example/?utm_source=e2e').waitFor();
    await receipt.getByText('E2E Browser/1.0').waitFor();
    await receipt.getByText('Sent (do not sell or share)').waitFor();
    await receipt.getByText(/Reply STOP to stop, HELP for help/).waitFor();
    await receipt.getByRole('button', { name: 'Close' }).click();

    await chooseHeaderAction(page, 'Data Requests');
    const dialog = page.getByRole('dialog', { name: 'Data requests' });
    await dialog.getByLabel('E-mail address').fill(email);
    await dialog.getByRole('button', { name: 'Look up' }).click();
    await dialog.getByText('1 website lead(s)').waitFor();
    await dialog.getByText('1 consent receipt(s)').waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog.getByRole('button', { name: 'Export JSON' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^data-request-\d{4}-\d{2}-\d{2}\.json$/);

    await dialog.getByRole('button', { name: 'Delete all records' }).click();
    await dialog.getByRole('button', { name: 'Delete permanently' }).click();
    await dialog.getByText('0 website lead(s)').waitFor();
    await dialog.getByText('1 suppression entry').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => websiteSection.getByRole('row').filter({ hasText: lastName }).count()).toBe(0);
    await context.close();
  });
});
