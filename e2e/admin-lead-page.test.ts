import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, describeViolations } from './support/axe';
import { baseUrl, launchBrowser, pinToast, uniqueEmail } from './support/browser';
import { queryE2eDatabase } from './support/database';

// A page per lead (issue 26) in Chromium: a lead's link pasted into a fresh, signed-out browser goes
// through sign-in and back to the lead — its fields, attribution, consent receipt and audit trail — and
// the lead is deleted from there with the spec's confirmation and toast; the same link then says the
// lead is gone. The table's rows link to the page. The same for an API lead.

const ADMIN = { username: 'e2e-admin', password: 'e2e-password-123' };
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function submitLead(lastName: string, email: string): Promise<string> {
  const res = await fetch(`${baseUrl()}/api/submit-search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      firstName: 'Paige',
      lastName,
      streetAddress: '12 Linkable Ln',
      zipCode: '82001',
      email,
      phone: '(307) 555-0177',
      birthMonth: '6',
      birthDay: '11',
      birthYear: '1962',
      consentGiven: 'true',
      attribution: { utm_source: 'newsletter', utm_campaign: 'page-per-lead', gclid: 'E2E-click-123' },
    }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

/** A fresh browser (no session) on the sign-in page, signing in there. */
async function signInOnPage(page: Page) {
  await page.getByLabel('Username').fill(ADMIN.username);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** A row of a section's two-column table, by its label (the row's name starts with it). */
const fieldRow = (scope: Locator, label: string) =>
  scope.getByRole('row', { name: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `) });

describe('a page per lead', () => {
  it('opens from a pasted link (through sign-in), shows the lead whole, deletes it, then says it is gone', async () => {
    const lastName = `Pagelink${Date.now().toString(36)}`;
    const email = uniqueEmail('lead-page');
    const id = await submitLead(lastName, email);

    // Someone looked this person up (a data request): the lead's audit trail shows it.
    const admin = await browser.newContext({ baseURL: baseUrl() });
    expect((await admin.request.post('/api/admin/login', { data: ADMIN })).status()).toBe(200);
    expect((await admin.request.post('/api/admin/data-requests/lookup', { data: { email } })).status()).toBe(
      200,
    );
    await admin.close();

    // The link, pasted into a browser that is not signed in: sign-in first, then the lead itself.
    const context = await browser.newContext({ baseURL: baseUrl() });
    const page = await context.newPage();
    await page.goto(`/admin/leads/${id}`);
    await page.waitForURL(/\/admin\/login\?next=/);
    await signInOnPage(page);
    await page.waitForURL(`**/admin/leads/${id}`);

    await page.getByRole('heading', { level: 1, name: `Lead Paige ${lastName}` }).waitFor();
    const details = page.getByRole('region', { name: 'Details' });
    await fieldRow(details, 'Email').getByText(email).waitFor();
    await fieldRow(details, 'ID').getByText(id).waitFor();
    await fieldRow(details, 'Phone').getByText('(307) 555-0177').waitFor();
    await fieldRow(details, 'TCPA')
      .getByText(/^(Non-)?Compliant$/)
      .waitFor();
    // Times in the business clock, the zone named.
    await fieldRow(details, 'Created At (ET)').waitFor();

    const attribution = page.getByRole('region', { name: 'Attribution' });
    await fieldRow(attribution, 'Campaign').getByText('page-per-lead').waitFor();
    // Every captured key, click ids included.
    await fieldRow(attribution, 'gclid').getByText('E2E-click-123').waitFor();
    await fieldRow(attribution, 'utm_source').getByText('newsletter').waitFor();

    const receipt = page.getByRole('region', { name: 'Consent receipt' });
    await receipt.getByText('Disclosure shown beside the consent checkbox').waitFor();
    await receipt.getByRole('row', { name: 'Consent given Yes' }).waitFor();
    expect(await fieldRow(receipt, 'Recorded at').textContent()).toMatch(/ ET \(/);

    const trail = page.getByRole('region', { name: 'Audit trail' });
    const lookup = trail.getByRole('row').filter({ hasText: "Looked up a person's data" });
    await lookup.waitFor();
    expect(await lookup.textContent()).toContain(ADMIN.username);
    // Readable by everyone (the checks the other screens pass).
    expect(describeViolations(await axeViolations(page))).toEqual([]);

    // Delete from the page: the spec's confirmation and toast, then the dashboard.
    await page.getByRole('button', { name: 'Delete lead' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete lead?' });
    await dialog.getByText(`Paige ${lastName} will be permanently deleted. This cannot be undone.`).waitFor();
    const deleted = pinToast(page, 'Lead deleted');
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await deleted;
    await page.waitForURL(/\/admin\/leads$/);
    await page.getByRole('heading', { name: 'Website Leads' }).waitFor();

    // The same link again: the lead is gone, said so, with who deleted it and the way back.
    await page.goto(`/admin/leads/${id}`);
    await page.getByRole('heading', { level: 1, name: 'Lead not found' }).waitFor();
    await page.getByText(new RegExp(`^Deleted by ${ADMIN.username} on .+ ET\\.$`)).waitFor();
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await page.getByRole('link', { name: 'Back to the dashboard' }).click();
    await page.waitForURL(/\/admin\/leads$/);

    // A malformed id is "not found" too, not a blank page or a crash.
    await page.goto('/admin/leads/not-a-lead');
    await page.getByRole('heading', { level: 1, name: 'Lead not found' }).waitFor();
    await page.getByText(/the id in it is not valid/).waitFor();

    // Another admin path of the same shape is no lead's page: the site's not-found page, and a 404.
    const other = await page.goto('/admin/backups/some-file');
    expect(other?.status()).toBe(404);
    await page.getByRole('heading', { level: 1, name: '404 Page Not Found' }).waitFor();
    await context.close();
  });

  it("the table's rows link to the page (a real address) and the drawer does too", async () => {
    const lastName = `Rowlink${Date.now().toString(36)}`;
    const email = uniqueEmail('lead-row');
    const id = await submitLead(lastName, email);
    const context = await browser.newContext({ baseURL: baseUrl() });
    expect((await context.request.post('/api/admin/login', { data: ADMIN })).status()).toBe(200);
    const page = await context.newPage();
    await page.goto(`/admin/leads?search=${encodeURIComponent(email)}`);
    const table = page.getByRole('region', { name: 'Website leads' });
    const row = table.getByRole('row').filter({ hasText: lastName });
    const link = row.getByRole('link', { name: `Open the page of lead Paige ${lastName}` });
    expect(await link.getAttribute('href')).toBe(`/admin/leads/${id}`);

    await row.getByRole('button', { name: `View lead Paige ${lastName}` }).click();
    const drawer = page.getByRole('dialog', { name: `Lead Paige ${lastName}` });
    const drawerLink = drawer.getByRole('link', { name: /Open the lead's page/ });
    expect(await drawerLink.getAttribute('href')).toBe(`/admin/leads/${id}`);
    await drawerLink.click();
    await page.waitForURL(`**/admin/leads/${id}`);
    await page.getByRole('heading', { level: 1, name: `Lead Paige ${lastName}` }).waitFor();
    await context.close();
  });
});

// API leads come from partners; the test writes one straight into the shared server's database, so it
// needs the PostgreSQL of DATABASE_URL (as CI has).
describe.skipIf(!inject('e2eDatabaseUrl'))('a page per API lead', () => {
  it('shows the API lead with its partner, deletes it, then says it is gone', async () => {
    const lastName = `Apipage${Date.now().toString(36)}`;
    const partner = `Page Partner ${Date.now().toString(36)}`;
    const rows = await queryE2eDatabase<{ id: string }>(
      inject('e2eDatabaseUrl'),
      `with p as (insert into partner (name) values ($2) returning id)
       insert into api_lead (id, first_name, last_name, street_address, city, state, phone, birth_month,
         birth_day, birth_year, beneficiary, partner_id, created_at)
       select gen_random_uuid(), 'Quinn', $1, '4 Api Ave', 'Laramie', 'WY', '(307) 555-0190', 7, 8, 1966,
         'Estate', p.id, now() from p
       returning id`,
      [lastName, partner],
    );
    const id = rows?.[0]?.id ?? '';
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    // Pasted while signed out, like the website lead's link: through sign-in and back.
    const context = await browser.newContext({ baseURL: baseUrl() });
    const page = await context.newPage();
    await page.goto(`/admin/api-leads/${id}`);
    await page.waitForURL(/\/admin\/login\?next=%2Fadmin%2Fapi-leads%2F/);
    await signInOnPage(page);
    await page.waitForURL(`**/admin/api-leads/${id}`);
    await page.getByRole('heading', { level: 1, name: `API lead Quinn ${lastName}` }).waitFor();
    const details = page.getByRole('region', { name: 'Details' });
    await fieldRow(details, 'City').getByText('Laramie').waitFor();
    await fieldRow(details, 'Beneficiary').getByText('Estate').waitFor();
    await fieldRow(details, 'Partner').getByText(partner).waitFor();
    await page
      .getByRole('region', { name: 'Audit trail' })
      .getByText(/No admin action concerns/)
      .waitFor();
    // A website lead's sections are not an API lead's.
    expect(await page.getByRole('region', { name: 'Consent receipt' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Delete API lead' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete API lead?' });
    const deleted = pinToast(page, 'API lead deleted');
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await deleted;
    await page.waitForURL(/\/admin\/leads$/);

    await page.goto(`/admin/api-leads/${id}`);
    await page.getByRole('heading', { level: 1, name: 'API lead not found' }).waitFor();
    await page.getByText(new RegExp(`^Deleted by ${ADMIN.username} on .+ ET\\.$`)).waitFor();
    await context.close();
  });
});
