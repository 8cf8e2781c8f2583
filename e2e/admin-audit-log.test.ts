import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseHeaderAction, E2E_ADMIN, signInThroughForm } from './support/admin';
import { launchBrowser, openPage } from './support/browser';

// The audit log as an admin sees it: a failed sign-in, the sign-in and a backup made in this browser
// show up, newest first, in the dashboard's Audit Log dialog. Other files share the server (and its
// log), so rows are found by what this test did, not by position alone.

const ADMIN = E2E_ADMIN;
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('admin audit log', () => {
  it('lists sign-ins, failed sign-ins and backups with who, when and details', async () => {
    const { context, page } = await openPage(browser, '/admin/login');
    const stranger = `audit-e2e-${Date.now().toString(36)}`;
    await page.getByLabel('Username').fill(stranger);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Invalid username or password').first().waitFor();

    await signInThroughForm(page);

    await chooseHeaderAction(page, 'Backup Database');
    const backupToast = page
      .locator('.mantine-Notification-root')
      .filter({ hasText: 'Backup created successfully' });
    await backupToast.waitFor({ timeout: 20_000 });
    // The toast's text is its title followed by the absolute path of the file.
    const backupPath = /\/\S+?\.(?:dump|sql\.gz)/.exec((await backupToast.textContent()) ?? '')?.[0];
    expect(backupPath).toBeDefined();

    await chooseHeaderAction(page, 'Audit Log');
    const dialog = page.getByRole('dialog', { name: 'Audit Log' });
    await dialog.waitFor();
    const rows = dialog.locator('tbody tr');
    await rows.first().waitFor();

    const failed = rows.filter({ hasText: stranger });
    await failed.waitFor();
    expect(await failed.locator('td').nth(2).textContent()).toBe('Failed sign-in');

    const backupRow = rows.filter({ hasText: backupPath ?? '' });
    await backupRow.waitFor();
    expect(await backupRow.locator('td').nth(1).textContent()).toBe(ADMIN.username);
    expect(await backupRow.locator('td').nth(2).textContent()).toBe('Backed up the database');
    expect(await backupRow.locator('td').nth(3).textContent()).toBe(`filepath: ${backupPath}`);

    // Newest first: this backup comes before this browser's own sign-in, which comes before the
    // failed attempt that preceded it.
    const texts = await rows.allTextContents();
    const backupAt = texts.findIndex((t) => t.includes(backupPath ?? '?'));
    const failedAt = texts.findIndex((t) => t.includes(stranger));
    const signInAt = texts.findIndex(
      (t, i) => i > backupAt && t.includes('Signed in') && t.includes(ADMIN.username),
    );
    expect(backupAt).toBeGreaterThanOrEqual(0);
    expect(signInAt).toBeGreaterThan(backupAt);
    expect(failedAt).toBeGreaterThan(signInAt);

    await dialog
      .getByRole('button', { name: 'Close' })
      .or(page.locator('.mantine-Modal-close'))
      .first()
      .click();
    await dialog.waitFor({ state: 'detached' });
    await context.close();
  });
});
