import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from './support/browser';

// The landing form's side of lead quality (issue 33): the page carries its form token for the form, the
// honeypot is out of everyone's way, and a likely e-mail typo is offered a correction without blocking.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('lead quality on the landing form', () => {
  it('carries a form token that belongs to the form, and keeps the honeypot out of the tab order and the accessibility tree', async () => {
    const { context, page } = await openPage(browser, '/');
    const token = page.locator('input[name="formToken"]');
    expect(await token.getAttribute('form')).toBe('lead-form');
    expect(await token.inputValue()).toMatch(/^v1\./);
    // The browser counts it among the form's own fields (so a post without the app sends it).
    expect(
      await page.evaluate(() => {
        const form = document.getElementById('lead-form') as HTMLFormElement | null;
        return form ? new FormData(form).has('formToken') : false;
      }),
    ).toBe(true);
    const honeypot = page.locator('input[name="referenceCode"]');
    expect(await honeypot.getAttribute('tabindex')).toBe('-1');
    // Off screen: nowhere a person can see it.
    const box = await honeypot.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(0);
    // Tab from the e-mail field goes to the phone, never to the honeypot.
    await page.getByLabel('Email Address', { exact: true }).focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe(
      'phone',
    );
    await expect.poll(() => page.getByRole('textbox', { name: /reference code/i }).count()).toBe(0);
    await context.close();
  });

  it('offers "Did you mean …?" for a provider typo, and takes the correction with a click', async () => {
    const { context, page } = await openPage(browser, '/');
    const email = page.getByLabel('Email Address', { exact: true });
    await email.fill('maria.lopez@gmial.com');
    await page.getByLabel('Phone Number', { exact: true }).focus();
    const offer = page.getByRole('button', { name: 'maria.lopez@gmail.com' });
    await offer.waitFor();
    await offer.click();
    await expect.poll(() => email.inputValue()).toBe('maria.lopez@gmail.com');
    await expect.poll(() => offer.count()).toBe(0);
    await context.close();
  });
});
