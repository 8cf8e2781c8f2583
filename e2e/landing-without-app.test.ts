import { STATE_SITES } from '@uf/shared/state-sites';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { baseUrl, holdApp, launchBrowser, uniqueEmail } from './support/browser';
import { queryE2eDatabase } from './support/database';
import { fillLeadForm, validLead } from './support/lead-form';

// The landing page from its first paint (issue 27, ADR 057): a real form that the server answers when the
// app's scripts never run, a tap made before the app runs that is never lost, and the fields' contents
// adopted when the app takes over.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A page whose scripts never run (disabled, as a content blocker or a failed download leaves it). */
async function pageWithoutScripts(options: Parameters<Browser['newContext']>[0] = {}) {
  const context = await browser.newContext({ baseURL: baseUrl(), javaScriptEnabled: false, ...options });
  return { context, page: await context.newPage() };
}

async function storedLead(email: string): Promise<Record<string, unknown> | null | undefined> {
  const rows = await queryE2eDatabase(
    inject('e2eDatabaseUrl'),
    `select l.first_name, l.beneficiary, l.state,
            (select count(*)::int from consent_receipt c where c.lead_id = l.id) as receipts
       from website_lead l where l.email = $1`,
    [email],
  );
  return rows && (rows[0] ?? null);
}

const searchNow = (page: Page) => page.getByRole('button', { name: 'Search Now' });

describe('the landing page without the app’s scripts', () => {
  it('posts the form to the server: messages under each field with the values kept, consent unticked', async () => {
    const { context, page } = await pageWithoutScripts();
    await page.goto('/');
    const lead = validLead(uniqueEmail('noscript-invalid'), { zipCode: '123', phone: '12' });
    await fillLeadForm(page, lead);
    await searchNow(page).click();
    await page.getByText('ZIP code must be at least 5 digits').waitFor();
    await page.getByText('Please enter a valid phone number (e.g., (555) 123-4567)').waitFor();
    expect(new URL(page.url()).search).toBe(''); // never GET: nothing of the visitor in the address
    expect(await page.getByLabel('Email Address', { exact: true }).inputValue()).toBe(lead.email);
    expect(await page.getByLabel('Birth Year', { exact: true }).inputValue()).toBe(lead.birthYear);
    expect(await page.getByRole('checkbox').isChecked()).toBe(false);
    expect(await storedLead(lead.email)).not.toBeTruthy();
    await context.close();
  });

  it('stores the lead, asks for the beneficiary as a plain form, then links to the state site', async () => {
    const { context, page } = await pageWithoutScripts();
    await page.goto('/?utm_source=noscript');
    const lead = validLead(uniqueEmail('noscript'), { zipCode: '10001' });
    await fillLeadForm(page, lead);
    await searchNow(page).click();
    await page.getByRole('heading', { name: 'Who is your beneficiary?' }).waitFor();
    for (const option of ['Child', 'Husband', 'Wife', 'Aunt', 'Uncle', 'Cousin', 'Estate']) {
      await page.getByRole('radio', { name: option }).waitFor();
    }
    await page.getByRole('radio', { name: 'Wife' }).check();
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('heading', { name: 'Congratulations!' }).waitFor();
    const claim = page.getByRole('link', { name: 'Search & Claim Your Assets' });
    expect(await claim.getAttribute('href')).toBe(STATE_SITES.NY);
    expect(await claim.getAttribute('target')).toBe('_blank');
    expect(await page.getByRole('link', { name: 'Search for More People' }).getAttribute('href')).toBe('/');
    const stored = await storedLead(lead.email);
    if (stored !== undefined) expect(stored).toMatchObject({ beneficiary: 'Wife', state: 'NY', receipts: 1 });
    await context.close();
  });

  it("Skip stores 'Not specified'; a duplicate e-mail from another browser shows the spec's message", async () => {
    const { context, page } = await pageWithoutScripts();
    await page.goto('/');
    const lead = validLead(uniqueEmail('noscript-skip'));
    await fillLeadForm(page, lead);
    await searchNow(page).click();
    await page.getByRole('button', { name: 'Skip' }).click();
    await page.getByRole('heading', { name: 'Congratulations!' }).waitFor();
    const stored = await storedLead(lead.email);
    if (stored !== undefined) expect(stored).toMatchObject({ beneficiary: 'Not specified' });
    // The same browser sending the same lead again gets its own lead back (a retry, issue 22): another
    // browser with that e-mail is told it was already submitted.
    await page.getByRole('link', { name: 'Search for More People' }).click();
    await fillLeadForm(page, lead);
    await searchNow(page).click();
    await page.getByRole('heading', { name: 'Who is your beneficiary?' }).waitFor();
    const other = await pageWithoutScripts();
    await other.page.goto('/');
    await fillLeadForm(other.page, lead);
    await searchNow(other.page).click();
    const alert = other.page.getByRole('alert').filter({ hasText: 'Already Submitted' });
    await alert.waitFor();
    expect(await alert.innerText()).toContain(
      'This email address has already been submitted. Each person can only submit their information once.',
    );
    await other.context.close();
    await context.close();
  });

  it('the hero’s call to action puts the cursor in the first-name field', async () => {
    const { context, page } = await pageWithoutScripts({ viewport: { width: 390, height: 844 } });
    await page.goto('/');
    await page.getByRole('link', { name: 'Start Your Free Search' }).click();
    await page.keyboard.type('Ada');
    expect(await page.getByLabel('First Name', { exact: true }).inputValue()).toBe('Ada');
    await context.close();
  });
});

describe('the landing page before the app has started', () => {
  it('holds a tap on "Search Now" for the app: busy at once, then the lead is stored and the dialog opens', async () => {
    const context = await browser.newContext({ baseURL: baseUrl() });
    const page = await context.newPage();
    const release = await holdApp(page);
    await page.goto('/');
    const lead = validLead(uniqueEmail('early-tap'));
    await fillLeadForm(page, lead);
    expect(await searchNow(page).isDisabled()).toBe(false);
    await searchNow(page).click();
    await page.waitForSelector('button[type="submit"][aria-busy="true"]');
    expect(await page.evaluate(() => document.documentElement.dataset.appReady)).toBeUndefined();
    release();
    await page.getByRole('dialog', { name: 'Who is your beneficiary?' }).waitFor();
    const stored = await storedLead(lead.email);
    if (stored !== undefined) expect(stored).toMatchObject({ first_name: lead.firstName });
    await context.close();
  });

  it('posts the form itself when the app fails to load', async () => {
    const context = await browser.newContext({ baseURL: baseUrl() });
    const page = await context.newPage();
    await holdApp(page, 'fail');
    await page.goto('/');
    const lead = validLead(uniqueEmail('app-failed'));
    await fillLeadForm(page, lead);
    await searchNow(page).click();
    await page.getByRole('heading', { name: 'Who is your beneficiary?' }).waitFor();
    const stored = await storedLead(lead.email);
    if (stored !== undefined) expect(stored).toMatchObject({ first_name: lead.firstName });
    await context.close();
  });

  it('the app takes over the beneficiary form the server rendered, and sends the choice through the API', async () => {
    const context = await browser.newContext({ baseURL: baseUrl() });
    const page = await context.newPage();
    // The app fails on the first page only: the form is posted by the browser; the answer page's app runs.
    let failures = 1;
    await page.route(/\/assets\/app-start-[^/]+\.js$/, (route) =>
      failures-- > 0 ? route.abort() : route.continue(),
    );
    await page.goto('/');
    const lead = validLead(uniqueEmail('takeover'));
    await fillLeadForm(page, lead);
    await searchNow(page).click();
    await page.getByRole('heading', { name: 'Who is your beneficiary?' }).waitFor();
    await page.mouse.move(5, 5);
    await page.waitForSelector('html[data-app-ready="true"]', { state: 'attached' });
    await page.getByRole('radio', { name: 'Uncle' }).check();
    const update = page.waitForRequest(
      (r) => r.url().includes('/api/') && r.method() !== 'GET' && /beneficiary/i.test(r.url()),
    );
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => navigations.push(frame.url()));
    await page.getByRole('button', { name: 'Submit' }).click();
    await update;
    await page.getByRole('heading', { name: 'Congratulations!' }).waitFor();
    expect(navigations).toEqual([]);
    const stored = await storedLead(lead.email);
    if (stored !== undefined) expect(stored).toMatchObject({ beneficiary: 'Uncle' });
    await context.close();
  });

  it('the app takes the page over where the visitor is: no scroll to the top under a tap', async () => {
    const context = await browser.newContext({
      baseURL: baseUrl(),
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    const release = await holdApp(page);
    await page.goto('/');
    await page.getByLabel('First Name', { exact: true }).fill('Ada'); // starts the app (held back)
    await page.getByRole('checkbox').scrollIntoViewIfNeeded();
    const before = await page.evaluate(() => window.scrollY);
    expect(before).toBeGreaterThan(0);
    release();
    await page.waitForSelector('html[data-app-ready="true"]', { state: 'attached' });
    // The router's scroll restoration would have run on the app's first render by now.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    expect(await page.evaluate(() => window.scrollY)).toBe(before);
    await context.close();
  });

  it('/unsubscribe adopts an e-mail filled before its script ran (no key events)', async () => {
    const context = await browser.newContext({ baseURL: baseUrl() });
    const page = await context.newPage();
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Every script held back, the entry too: the visitor fills the field before any listener exists.
    await page.route(/\/assets\/[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    // Module scripts hold DOMContentLoaded back: wait for the prerendered field instead.
    await page.goto('/unsubscribe', { waitUntil: 'commit' });
    await page.waitForSelector('input[type="email"]', { state: 'attached' });
    await page.evaluate(() => {
      const field = document.querySelector<HTMLInputElement>('input[type="email"]');
      if (field) field.value = 'filled.before.app@example.com';
    });
    release();
    await page.waitForSelector('html[data-app-ready="true"]', { state: 'attached' });
    const button = page.getByRole('button', { name: /unsubscribe/i });
    await expect.poll(() => button.isEnabled()).toBe(true);
    await context.close();
  });
});

describe('the landing page on a phone', () => {
  it('shows the call to action and the start of the form on the first screen, form text at 16 px', async () => {
    const { context, page } = await pageWithoutScripts({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    await page.goto('/');
    const cta = await page.getByRole('link', { name: 'Start Your Free Search' }).boundingBox();
    const first = await page.getByLabel('First Name', { exact: true }).boundingBox();
    expect(cta && cta.y + cta.height).toBeLessThanOrEqual(844);
    expect(first && first.y + first.height).toBeLessThanOrEqual(844);
    const sizes = await page.evaluate(() =>
      Array.from(
        document.querySelectorAll<HTMLElement>(
          'form input:not([type="hidden"]):not([type="checkbox"]), form select, .mantine-Checkbox-label span',
        ),
        (el) => Number.parseFloat(getComputedStyle(el).fontSize),
      ),
    );
    expect(sizes.length).toBeGreaterThan(9);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(16);
    await context.close();
  });
});
