import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInThroughForm } from './support/admin';
import { baseUrl, launchBrowser, openPage, pinToast, uniqueEmail } from './support/browser';
import { validLead } from './support/lead-form';

// Issue 37 (finding 8): with one toast visible at a time (spec §8), the next action's feedback waited
// behind the last one's 5 seconds (longer while the pointer rests on it). The newest feedback now takes
// its place at once.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
  // Rows down to the bottom of the window, where the toasts show.
  for (let i = 0; i < 8; i++) {
    const res = await fetch(`${baseUrl()}/api/submit-search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...validLead(uniqueEmail('toasts')), consentGiven: 'true' }),
    });
    expect(res.status).toBe(200);
  }
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

    // Never over a row's actions (View, page, Delete, its checkbox), whatever rows are at the bottom.
    expect(await page.getByRole('table').first().getByRole('row').count()).toBeGreaterThan(8);
    const toast = page
      .locator('.mantine-Notification-root')
      .filter({ hasText: 'Backup created successfully' });
    const t = await toast.boundingBox();
    expect(t).not.toBeNull();
    const controls = page
      .getByRole('table')
      .first()
      .getByRole('row')
      .locator('button, a, input[type="checkbox"]');
    for (const box of await controls.evaluateAll((els) =>
      els.map((el) => {
        const r = el.getBoundingClientRect();
        return {
          x: r.x,
          y: r.y,
          width: r.width,
          height: r.height,
          label: el.getAttribute('aria-label') ?? el.textContent,
        };
      }),
    )) {
      if (!t) break;
      const overlaps =
        box.x < t.x + t.width &&
        t.x < box.x + box.width &&
        box.y < t.y + t.height &&
        t.y < box.y + box.height;
      expect(overlaps, `the toast covers ${box.label}`).toBe(false);
    }
    await context.close();
  });
});
