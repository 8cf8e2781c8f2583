import type { Page } from 'playwright-core';

/** The spec's header buttons (§2), in the spec's order; bulk delete comes first while rows are selected. */
export const SPEC_HEADER_BUTTONS = [
  'Refresh',
  'Export CSV',
  'Backup Database',
  'Analytics',
  'Logout',
] as const;

/** Runs one of the leads dashboard's header actions: a spec action is a button of its own; the others
 * (Data Requests, Audit Log) are items of the "More actions" menu (issue 27, ADR 054). */
export async function chooseHeaderAction(page: Page, label: string): Promise<void> {
  if ((SPEC_HEADER_BUTTONS as readonly string[]).includes(label)) {
    await page.getByRole('button', { name: label, exact: true }).click();
    return;
  }
  await page.getByRole('button', { name: 'More actions' }).click();
  await page.getByRole('menuitem', { name: label, exact: true }).click();
}

/** The admin the e2e server creates at start-up (e2e/global-setup.ts). */
export const E2E_ADMIN = { username: 'e2e-admin', password: 'e2e-password-123' } as const;

/** Signs in through the sign-in form, as an admin does, and waits for the leads dashboard. */
export async function signInThroughForm(
  page: Page,
  admin: { username: string; password: string } = E2E_ADMIN,
): Promise<void> {
  await page.getByLabel('Username').fill(admin.username);
  await page.getByLabel('Password', { exact: true }).fill(admin.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL('**/admin/leads');
}
