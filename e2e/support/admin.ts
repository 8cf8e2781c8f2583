import type { Page } from 'playwright-core';

/** Runs one of the leads dashboard's header actions kept in its "More actions" menu (issue 16). */
export async function chooseHeaderAction(page: Page, label: string): Promise<void> {
  await page.getByRole('button', { name: 'More actions' }).click();
  await page.getByRole('menuitem', { name: label, exact: true }).click();
}
