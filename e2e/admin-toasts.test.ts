import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { signInThroughForm } from './support/admin';
import { launchBrowser, openPage, pinToast } from './support/browser';

// Issue 37 (finding 8): with one toast visible at a time (spec §8), the next action's feedback waited
// behind the last one's 5 seconds (longer while the pointer rests on it). The newest feedback now takes
// its place at once.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('toasts', () => {
  it("a new action's feedback replaces the last one at once", async () => {
    const { context, page } = await openPage(browser, '/admin/login', {
      viewport: { width: 1440, height: 900 },
    });
    await signInThroughForm(page);
    // Held on screen by the pointer resting on it: before, the next toast waited for it to go.
    const first = await pinToast(page, 'Login successful');
    // The next action by keyboard, so the pointer stays where it is.
    await page.getByRole('button', { name: 'Backup Database' }).focus();
    await page.keyboard.press('Enter');
    await page
      .locator('.mantine-Notification-root')
      .filter({ hasText: 'Backup created successfully' })
      .waitFor({ timeout: 15_000 });
    await first.waitFor({ state: 'detached' });
    await context.close();
  });
});
