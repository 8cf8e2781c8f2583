import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe';
import { launchBrowser, openPage, uniqueEmail } from './support/browser';
import { fillLeadForm, validLead } from './support/lead-form';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('landing page lead form', () => {
  it('shows every required-field message when submitted empty', async () => {
    const { context, page } = await openPage(browser, '/');
    await page.getByRole('button', { name: 'Search Now' }).click();
    for (const message of [
      'First name is required',
      'Last name is required',
      'Street address is required',
      'ZIP code must be at least 5 digits',
      'Email address is required',
      'Phone number is required',
      'Birth month is required',
      'Birth day is required',
      'Birth year is required',
      'You must consent to continue',
    ]) {
      await page.getByText(message, { exact: true }).waitFor();
    }
    await context.close();
  });

  it('shows every error at once, marks the fields and focuses the first invalid one', async () => {
    const { context, page } = await openPage(browser, '/');
    await fillLeadForm(page, validLead(uniqueEmail('all-errors'), { phone: '12345' }), false);
    await page.getByRole('button', { name: 'Search Now' }).click();
    await page
      .getByText('Please enter a valid phone number (e.g., (555) 123-4567)', { exact: true })
      .waitFor();
    await page.getByText('You must consent to continue', { exact: true }).waitFor();
    const phone = page.getByLabel('Phone Number', { exact: true });
    await expect.poll(() => phone.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await phone.getAttribute('aria-invalid')).toBe('true');
    const phoneError = await phone.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${phoneError}"]`).textContent()).toContain('valid phone number');
    const consent = page.getByRole('checkbox');
    expect(await consent.getAttribute('aria-invalid')).toBe('true');
    const consentError = await consent.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${consentError}"]`).textContent()).toBe('You must consent to continue');
    await context.close();
  });

  it('error messages and secondary text are readable: axe finds no contrast problem with every error shown', async () => {
    const { context, page } = await openPage(browser, '/', { viewport: { width: 390, height: 844 } });
    await page.getByRole('button', { name: 'Search Now' }).click();
    await page.getByText('You must consent to continue', { exact: true }).waitFor();
    const violations = await axeViolations(page);
    expect(violations.filter((v) => v.id === 'color-contrast')).toEqual([]);
    expect(violations).toEqual([]);
    await context.close();
  });

  it('shows format messages for a bad ZIP, e-mail and phone', async () => {
    const { context, page } = await openPage(browser, '/');
    await page.getByLabel('ZIP Code', { exact: true }).fill('123456');
    await page.getByLabel('Email Address', { exact: true }).fill('not-an-email');
    await page.getByLabel('Phone Number', { exact: true }).fill('12345');
    await page.getByRole('button', { name: 'Search Now' }).click();
    await page.getByText('ZIP code must be in format 12345 or 12345-6789').waitFor();
    await page.getByText(/^Please enter a valid email address \(e\.g\., .+@.+\)$/).waitFor();
    await page.getByText('Please enter a valid phone number (e.g., (555) 123-4567)').waitFor();
    await context.close();
  });

  it('offers month 1–12, day 1–31 and year 1994 down to 1940', async () => {
    const { context, page } = await openPage(browser, '/');
    const values = (label: string) =>
      page
        .getByLabel(label)
        .locator('option:not([disabled])')
        .evaluateAll((opts) => opts.map((o) => (o as HTMLOptionElement).value));
    expect(await values('Birth Month')).toEqual(Array.from({ length: 12 }, (_, i) => String(i + 1)));
    expect(await values('Birth Day')).toEqual(Array.from({ length: 31 }, (_, i) => String(i + 1)));
    const years = await values('Birth Year');
    expect(years).toHaveLength(55);
    expect(years[0]).toBe('1994');
    expect(years.at(-1)).toBe('1940');
    await context.close();
  });

  it('submits a valid lead and opens the beneficiary dialog; the sent form stays busy beneath it', async () => {
    const { context, page } = await openPage(browser, '/');
    await fillLeadForm(page, validLead(uniqueEmail()));
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().includes('/api/trpc/lead.submit')),
      page.getByRole('button', { name: 'Search Now' }).click(),
    ]);
    expect(response.status()).toBe(200);
    await page.getByRole('dialog', { name: 'Who is your beneficiary?' }).waitFor();
    // Sent once: the button does not come back for a second submit behind the dialog (issue 36 keeps it
    // busy until the next step replaces the form).
    const searchNow = page.locator('form[method="post"] button[type="submit"]');
    expect(await searchNow.isDisabled()).toBe(true);
    expect(await searchNow.getAttribute('data-loading')).toBe('true');
    await context.close();
  });
});
