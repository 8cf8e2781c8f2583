import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInThroughForm } from './support/admin';
import { baseUrl, launchBrowser, openPage, uniqueEmail } from './support/browser';

// "Select all N matching" (issue 26): with the whole first page selected, the table offers every lead the
// filter matches; the bulk delete then removes all of them — past the first page — and nothing else.

const TAG = Date.now().toString(36).replace(/\d/g, 'z');
const MATCHING = `Allmatch${TAG}`;
const DECOY = `Allmatcx${TAG}`;
const N = 30;
let browser: Browser;

async function submitLead(lastName: string) {
  const res = await fetch(`${baseUrl()}/api/submit-search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      firstName: 'Sam',
      lastName,
      streetAddress: '9 Batch Rd',
      zipCode: '05401',
      email: uniqueEmail('select-all'),
      phone: '(802) 555-0100',
      birthMonth: '3',
      birthDay: '4',
      birthYear: '1960',
      consentGiven: 'true',
    }),
  });
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  browser = await launchBrowser();
  for (let i = 0; i < N; i += 1) await submitLead(MATCHING);
  for (let i = 0; i < 3; i += 1) await submitLead(DECOY);
});
afterAll(async () => {
  await browser?.close();
});

describe('select all matching', () => {
  it('deletes every matching lead past the first page, and nothing else', async () => {
    const { context, page } = await openPage(browser, '/admin/login', {
      viewport: { width: 1440, height: 900 },
    });
    await signInThroughForm(page);
    const totalBefore = Number(
      (await page.request.get('/api/admin/leads?page=1&pageSize=1')).headers()['x-total-count'],
    );

    await page.goto(`/admin/leads?search=${MATCHING}&pageSize=25`);
    await page.getByRole('heading', { name: `Leads Data (${N} records)`, exact: true }).waitFor();
    const table = page.getByRole('table').first();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(25);

    // Ticking the page selects its 25 rows; the offer to take all 30 appears.
    await page.getByRole('checkbox', { name: 'Select all listed rows' }).first().check();
    await page.getByRole('button', { name: 'Delete Selected (25)' }).waitFor();
    await page.getByText('All 25 leads on this page are selected.').waitFor();
    await page.getByRole('button', { name: `Select all ${N} matching` }).click();
    await page.getByText(`All ${N} leads matching the filters are selected.`).waitFor();

    await page.getByRole('button', { name: `Delete Selected (${N})` }).click();
    const confirm = page.getByRole('dialog', { name: `Delete ${N} leads?` });
    await confirm.getByText(`All ${N} leads matching the current filters`).waitFor();
    await confirm.getByRole('button', { name: `Delete ${N}` }).click();

    // The spec's toasts: one at the start, then 'Deletion complete' with the count.
    await page
      .locator('.mantine-Notification-root')
      .filter({ hasText: 'Deletion complete' })
      .filter({ hasText: `${N} leads deleted` })
      .waitFor({ timeout: 30_000 });
    await page.getByRole('heading', { name: 'Leads Data (0 records)', exact: true }).waitFor();

    const left = async (search: string) =>
      ((await (await page.request.get(`/api/admin/leads?search=${search}`)).json()) as unknown[]).length;
    expect(await left(MATCHING)).toBe(0);
    expect(await left(DECOY)).toBe(3);
    const totalAfter = Number(
      (await page.request.get('/api/admin/leads?page=1&pageSize=1')).headers()['x-total-count'],
    );
    expect(totalAfter).toBe(totalBefore - N);

    const audit = (await (await page.request.get('/api/admin/audit-log?limit=1')).json()) as {
      action: string;
      detail: Record<string, unknown>;
    }[];
    expect(audit[0]).toMatchObject({
      action: 'leads.delete',
      detail: { matching: { search: MATCHING }, requested: N, deleted: N },
    });
    await context.close();
  });

  it('still tells how a delete ended when the admin closed the "Deletion in progress" toast', async () => {
    const { context, page } = await openPage(browser, '/admin/login', {
      viewport: { width: 1440, height: 900 },
    });
    await signInThroughForm(page);
    // The delete's answer waits until the progress toast has been closed.
    let release!: () => void;
    const closed = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/admin.leads.bulkRemove*', async (route) => {
      await closed;
      await route.continue();
    });

    await page.goto(`/admin/leads?search=${DECOY}`);
    await page.getByRole('heading', { name: 'Leads Data (3 records)', exact: true }).waitFor();
    await page.getByRole('checkbox', { name: 'Select all listed rows' }).first().check();
    await page.getByRole('button', { name: 'Delete Selected (3)' }).click();
    await page
      .getByRole('dialog', { name: 'Delete 3 leads?' })
      .getByRole('button', { name: 'Delete 3' })
      .click();

    const progress = page.locator('.mantine-Notification-root').filter({ hasText: 'Deletion in progress' });
    await progress.getByRole('button', { name: 'Close notification' }).click();
    await progress.waitFor({ state: 'detached' });
    release();

    await page
      .locator('.mantine-Notification-root')
      .filter({ hasText: 'Deletion complete' })
      .filter({ hasText: '3 leads deleted' })
      .waitFor({ timeout: 30_000 });
    await page.getByRole('heading', { name: 'Leads Data (0 records)', exact: true }).waitFor();
    await context.close();
  });
});
