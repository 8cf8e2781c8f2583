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
