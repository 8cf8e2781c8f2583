import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, openPage, uniqueEmail } from './support/browser';
import { fillLeadForm, validLead } from './support/lead-form';

// Issue 37 (findings 5 and 6): what the visitor sees after a submit. The no-JS Congratulations opened at
// the top of the page with the result below the fold; after success the hero's "Start Your Free Search"
// led to a field that was gone; a duplicate e-mail was a 5-second toast and then nothing.

const PHONE = { viewport: { width: 390, height: 844 } };
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const searchNow = (page: Page) => page.getByRole('button', { name: 'Search Now' });
const claimLink = (page: Page) => page.getByRole('link', { name: 'Search & Claim Your Assets' });

/** Whether the element lies wholly within the window as it is scrolled now. */
function inView(locator: Locator) {
  return locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= window.innerHeight;
  });
}

describe('after the lead form is sent', () => {
  it('without the app, the Congratulations page opens on the result (phone and desktop)', async () => {
    for (const viewport of [PHONE.viewport, { width: 1440, height: 900 }]) {
      const context = await browser.newContext({ baseURL: baseUrl(), javaScriptEnabled: false, viewport });
      const page = await context.newPage();
      await page.goto('/');
      await fillLeadForm(page, validLead(uniqueEmail('noscript-result')));
      await searchNow(page).click();
      await page.getByRole('button', { name: 'Skip' }).click();
      await page.getByRole('heading', { name: 'Congratulations!' }).waitFor();
      expect(await inView(claimLink(page)), `at ${viewport.width}×${viewport.height}`).toBe(true);
      await context.close();
    }
  });

  it("the hero's button, after success, leads to the result", async () => {
    const { context, page } = await openPage(browser, '/', PHONE);
    await fillLeadForm(page, validLead(uniqueEmail('hero-after')));
    await searchNow(page).click();
    await page
      .getByRole('dialog', { name: 'Who is your beneficiary?' })
      .getByRole('button', { name: 'Skip' })
      .click();
    await claimLink(page).waitFor();
    // The screen brings its link into view and focuses it a moment after it appears: scrolled to the top
    // before that, the page's own scroll came after and the link stayed in view (a busy machine, 20 s).
    // Then the visitor scrolls up and focus is elsewhere, so the hero's button must bring both back.
    await expect.poll(() => claimLink(page).evaluate((el) => el === document.activeElement)).toBe(true);
    await page.evaluate(() => {
      (document.activeElement as HTMLElement | null)?.blur();
      window.scrollTo({ top: 0 });
    });
    await expect.poll(() => inView(claimLink(page))).toBe(false);
    await page.getByRole('link', { name: 'Start Your Free Search' }).click();
    await expect.poll(() => inView(claimLink(page))).toBe(true);
    await expect.poll(() => claimLink(page).evaluate((el) => el === document.activeElement)).toBe(true);
    await context.close();
  });

  it('a duplicate e-mail leaves a lasting notice beside the field, after the toast has gone', async () => {
    const email = uniqueEmail('duplicate-notice');
    const first = await fetch(`${baseUrl()}/api/submit-search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...validLead(email), consentGiven: 'true' }),
    });
    expect(first.status).toBe(200);
    const { context, page } = await openPage(browser, '/');
    await fillLeadForm(page, validLead(email));
    await searchNow(page).click();
    const toast = page.locator('.mantine-Notification-root').filter({ hasText: 'Already Submitted' });
    await toast.waitFor();
    await toast.waitFor({ state: 'detached', timeout: 30_000 });
    await page
      .getByText(
        'This email address was already used for a search. To search for someone else, use their own email address.',
      )
      .waitFor();
    await context.close();
  });
});
