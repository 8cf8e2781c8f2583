import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseHeaderAction, signInThroughForm } from './support/admin';
import { launchBrowser, openPage } from './support/browser';

// Backups you can fetch (issue 26): a backup made with "Backup Database" is listed in the Backups
// screen (More actions), downloads whole, and can be deleted there.

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('admin backups', () => {
  it('lists a new backup, downloads it and deletes it', async () => {
    const { context, page } = await openPage(browser, '/admin/login', {
      acceptDownloads: true,
      viewport: { width: 1440, height: 900 },
    });
    await signInThroughForm(page);

    await chooseHeaderAction(page, 'Backup Database');
    const toast = page
      .locator('.mantine-Notification-root')
      .filter({ hasText: 'Backup created successfully' });
    await toast.waitFor({ timeout: 30_000 });
    const filepath = /\/\S+?\.(?:dump|sql\.gz)/.exec((await toast.textContent()) ?? '')?.[0] ?? '';
    const name = filepath.split('/').at(-1) ?? '';
    expect(name).toMatch(/^uf-backup-/);

    await chooseHeaderAction(page, 'Backups');
    const dialog = page.getByRole('dialog', { name: 'Backups' });
    const row = dialog.getByRole('row').filter({ hasText: name });
    await row.waitFor();
    // Newest first: the new backup is the first row.
    expect(await dialog.locator('tbody tr').first().textContent()).toContain(name);
    await dialog.getByText(`restore "$BACKUP_DIR/${name}" --yes`).waitFor();

    const downloadP = page.waitForEvent('download');
    await row.getByRole('link', { name: `Download ${name}` }).click();
    const download = await downloadP;
    expect(download.suggestedFilename()).toBe(name);
    const saved = readFileSync((await download.path()) ?? '');
    expect(saved.equals(readFileSync(filepath))).toBe(true);
    expect(saved.length).toBeGreaterThan(0);

    await row.getByRole('button', { name: `Delete ${name}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete backup' });
    await confirm.getByText(name).waitFor();
    await confirm.getByRole('button', { name: 'Delete backup' }).click();
    await page.locator('.mantine-Notification-root').filter({ hasText: 'Backup deleted' }).waitFor();
    await row.waitFor({ state: 'detached' });
    await context.close();
  });
});
