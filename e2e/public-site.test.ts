import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { pageDates } from '@uf/shared/page-dates';
import { MULTI_STATE_SITE_URL, STATE_SITES } from '@uf/shared/state-sites';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations, describeViolations } from './support/axe';
import {
  baseUrl,
  gotoReady,
  holdApp,
  interact,
  launchBrowser,
  networkQuiet,
  openPage,
  uniqueEmail,
} from './support/browser';
import { queryE2eDatabase } from './support/database';
import { fillLeadForm, validLead } from './support/lead-form';
import { PUBLIC_PAGES } from './support/public-pages';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function submitLead(page: Page, overrides = {}) {
  await fillLeadForm(page, validLead(uniqueEmail(), overrides));
  await page.getByRole('button', { name: 'Search Now' }).click();
  return page.getByRole('dialog', { name: 'Who is your beneficiary?' });
}

/** The lead row as stored, when the e2e server runs on DATABASE_URL (always in CI). */
async function storedBeneficiary(leadId: string): Promise<string | null | undefined> {
  const rows = await queryE2eDatabase<{ beneficiary: string | null }>(
    inject('e2eDatabaseUrl'),
    'select beneficiary from website_lead where id = $1',
    [leadId],
  );
  return rows && (rows[0]?.beneficiary ?? null);
}

/** Name and birth month of the lead stored for `email`, when the e2e server runs on DATABASE_URL. */
async function storedLead(email: string): Promise<Record<string, string> | null | undefined> {
  const rows = await queryE2eDatabase<Record<string, string>>(
    inject('e2eDatabaseUrl'),
    'select first_name, birth_month::text as birth_month from website_lead where email = $1',
    [email],
  );
  return rows && (rows[0] ?? null);
}

async function expectToast(page: Page, title: string, message: string) {
  const alert = page.getByRole('alert').filter({ hasText: title });
  await alert.getByText(message, { exact: true }).waitFor();
}

describe('submission flow', () => {
  it('goes from the form through the beneficiary dialog to Congratulations with the state site (California)', async () => {
    const { context, page } = await openPage(browser, '/');
    const dialog = await submitLead(page, { zipCode: '90210' });
    await dialog.waitFor();
    const submit = dialog.getByRole('button', { name: 'Submit' });
    expect(await submit.isDisabled()).toBe(true);
    await dialog.getByLabel('Wife').check();
    expect(await submit.isDisabled()).toBe(false);
    await submit.click();
    await page.getByRole('heading', { name: 'Congratulations!' }).waitFor();
    const link = page.getByRole('link', { name: 'Search & Claim Your Assets' });
    await expect.poll(() => link.getAttribute('href')).toBe(STATE_SITES.CA);
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    await page.getByText('Searches are always free on official state websites.').waitFor();
    await page.getByText('If you have lived in several states, check each state where you lived.').waitFor();

    await page.getByRole('button', { name: 'Search for More People' }).click();
    await page.getByRole('button', { name: 'Search Now' }).waitFor();
    expect(await page.getByLabel('First Name', { exact: true }).inputValue()).toBe('');
    await context.close();
  });

  it("sends an unknown-state ZIP to the national site and stores 'Not specified' on Skip", async () => {
    const { context, page } = await openPage(browser, '/');
    const submitResponse = page.waitForResponse((r) => r.url().includes('/api/trpc/lead.submit'));
    const dialog = await submitLead(page, { zipCode: '20001' });
    const leadId = ((await (await submitResponse).json()) as { result: { data: { id: string } } }).result.data
      .id;
    const patch = page.waitForRequest((r) => r.url().includes('/api/trpc/lead.setBeneficiary'));
    await dialog.getByRole('button', { name: 'Skip' }).click();
    expect((await patch).postDataJSON()).toEqual({ id: leadId, beneficiary: 'Not specified' });
    await page.getByRole('heading', { name: 'Congratulations!' }).waitFor();
    const link = page.getByRole('link', { name: 'Search & Claim Your Assets' });
    expect(await link.getAttribute('href')).toBe(MULTI_STATE_SITE_URL);
    await page
      .getByText(/Multiple States/)
      .first()
      .waitFor();
    const stored = await storedBeneficiary(leadId);
    if (stored !== undefined) expect(stored).toBe('Not specified');
    await context.close();
  });

  it("shows 'Already Submitted' for an e-mail that was already used", async () => {
    const email = uniqueEmail('dup');
    const first = await openPage(browser, '/');
    await fillLeadForm(first.page, validLead(email));
    await first.page.getByRole('button', { name: 'Search Now' }).click();
    await first.page.getByRole('dialog', { name: 'Who is your beneficiary?' }).waitFor();
    await first.context.close();

    const { context, page } = await openPage(browser, '/');
    await fillLeadForm(page, validLead(email.toUpperCase()));
    await page.getByRole('button', { name: 'Search Now' }).click();
    await expectToast(
      page,
      'Already Submitted',
      'This email address has already been submitted. Each person can only submit their information once.',
    );
    expect(await page.getByRole('dialog', { name: 'Who is your beneficiary?' }).count()).toBe(0);
    await context.close();
  });

  it("shows 'Age Requirement' when the server answers age_restriction, and 'Error' for other failures", async () => {
    const { context, page } = await openPage(browser, '/');
    const app = {
      error: 'age_restriction',
      message: 'Sorry, we only serve individuals born between 1940 and 1994',
    };
    await page.route('**/api/trpc/lead.submit*', (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({
          error: { message: app.message, code: -32600, data: { code: 'BAD_REQUEST', httpStatus: 400, app } },
        }),
      }),
    );
    await fillLeadForm(page, validLead(uniqueEmail()));
    await page.getByRole('button', { name: 'Search Now' }).click();
    await expectToast(
      page,
      'Age Requirement',
      'Sorry, we only serve individuals born between 1940 and 1994.',
    );

    await page.unroute('**/api/trpc/lead.submit*');
    await page.route('**/api/trpc/lead.submit*', (route) => route.abort('connectionreset'));
    await page.getByRole('button', { name: 'Search Now' }).click();
    await expectToast(page, 'Error', 'Failed to submit your search. Please try again.');
    // At most one toast stays visible (limit 1): the earlier one leaves.
    await expect.poll(() => page.getByRole('alert').count()).toBe(1);
    await context.close();
  });

  it('keeps the beneficiary dialog open with an error toast when the update fails', async () => {
    const { context, page } = await openPage(browser, '/');
    await page.route('**/api/trpc/lead.setBeneficiary*', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: '{"error":{"message":"x","code":-32603}}',
      }),
    );
    const dialog = await submitLead(page);
    await dialog.getByLabel('Child').check();
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await expectToast(page, 'Error', 'Failed to update beneficiary information.');
    expect(await dialog.isVisible()).toBe(true);
    // The dialog's own busy state ends with the failure: the visitor can try again.
    const submit = dialog.getByRole('button', { name: 'Submit' });
    await expect.poll(() => submit.getAttribute('data-loading')).toBe(null);
    await expect.poll(() => submit.isEnabled()).toBe(true);
    await context.close();
  });

  it('can be completed with the keyboard alone', async () => {
    const { context, page } = await openPage(browser, '/');
    await page.getByLabel('First Name', { exact: true }).focus();
    const v = validLead(uniqueEmail('kbd'));
    for (const text of [v.firstName, v.lastName, v.streetAddress, v.zipCode, v.email, v.phone]) {
      await page.keyboard.type(text);
      await page.keyboard.press('Tab');
    }
    // Native selects: typing picks the matching option.
    await page.keyboard.type('May');
    await page.keyboard.press('Tab');
    await page.keyboard.type('17');
    await page.keyboard.press('Tab');
    await page.keyboard.type('1970');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space'); // consent
    expect(await page.getByRole('checkbox').isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Search Now' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Who is your beneficiary?' });
    await dialog.waitFor();
    // Focus is trapped in the dialog; Tab to Skip and press it.
    for (let i = 0; i < 12; i++) {
      const label = await page.evaluate(() => document.activeElement?.textContent ?? '');
      if (label === 'Skip') break;
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Congratulations!' }).waitFor();
    await context.close();
  });

  it('moves focus to the notification region with F8', async () => {
    const { context, page } = await openPage(browser, '/');
    await page.getByRole('button', { name: 'Search Now' }).waitFor();
    await page.keyboard.press('F8');
    const label = await page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    expect(label).toBe('Notifications (F8)');
    await context.close();
  });
});

describe('analytics events from the browser', () => {
  it('sends page_view on load, survey_started once per session, form_submit on each submit', async () => {
    const context = await browser.newContext({ baseURL: baseUrl() });
    const page = await context.newPage();
    const events: { eventType: string; page: string; referrer: string; sessionId: string }[] = [];
    page.on('request', (r: Request) => {
      if (r.url().endsWith('/api/analytics/track')) events.push(r.postDataJSON());
    });
    await gotoReady(page, '/');
    await expect.poll(() => events.filter((e) => e.eventType === 'page_view').length).toBe(1);
    expect(events[0]).toMatchObject({ page: 'home', referrer: 'direct' });
    const checkbox = page.getByRole('checkbox');
    await checkbox.check();
    await checkbox.uncheck();
    await checkbox.check();
    await page.reload();
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Search Now' }).click();
    await page.getByRole('button', { name: 'Search Now' }).click();
    await expect.poll(() => events.filter((e) => e.eventType === 'form_submit').length).toBe(2);
    expect(events.filter((e) => e.eventType === 'survey_started')).toHaveLength(1);
    expect(events.filter((e) => e.eventType === 'page_view')).toHaveLength(2);
    expect(new Set(events.map((e) => e.sessionId)).size).toBe(1);
    await context.close();
  });
});

describe('the app starts on the first interaction (ADR 053)', () => {
  it('a visit without interaction loads no app code, yet counts page_view once with its campaign', async () => {
    const context = await browser.newContext({ baseURL: baseUrl() });
    const page = await context.newPage();
    const scripts: string[] = [];
    const views: { eventType: string; attribution?: Record<string, string> }[] = [];
    page.on('request', (r: Request) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
      if (r.url().endsWith('/api/analytics/track')) views.push(r.postDataJSON());
    });
    await page.goto('/?utm_source=newsletter&utm_medium=email&utm_campaign=fall');
    await expect.poll(() => views.length).toBe(1);
    // Nothing more is on its way (no app code, no second page_view) once the network is quiet.
    await networkQuiet(page);
    expect(views[0]).toMatchObject({ eventType: 'page_view', attribution: { utm_campaign: 'fall' } });
    expect(scripts.some((s) => /\/(client|app-start|landing-page)-[^/]+\.js$/.test(s))).toBe(false);
    expect(await page.evaluate(() => document.documentElement.dataset.appReady)).toBeUndefined();
    // What the visitor reads until then is the page as it will be: its colours too (axe: nothing at all).
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await interact(page);
    await page.waitForSelector('html[data-app-ready="true"]', { state: 'attached' });
    await networkQuiet(page);
    expect(views).toHaveLength(1);
    await context.close();
  });

  it('what the visitor enters before the app runs is kept, and the lead is stored with it', async () => {
    const context = await browser.newContext({ baseURL: baseUrl() });
    const page = await context.newPage();
    // Hold the app's last chunk back: the visitor types, picks and ticks while it loads.
    const release = await holdApp(page);
    await page.goto('/');
    const email = uniqueEmail('before-start');
    await page.getByLabel('First Name', { exact: true }).fill('Early');
    await page.getByLabel('Email Address', { exact: true }).fill(email);
    await page.getByLabel('Birth Month', { exact: true }).selectOption('5');
    await page.getByRole('checkbox').check();
    expect(await page.evaluate(() => document.documentElement.dataset.appReady)).toBeUndefined();
    release();
    await page.waitForSelector('html[data-app-ready="true"]', { state: 'attached' });
    const lead = validLead(email, { firstName: 'Early' });
    await page.getByLabel('Last Name', { exact: true }).fill(lead.lastName);
    await page.getByLabel('Street Address', { exact: true }).fill(lead.streetAddress);
    await page.getByLabel('ZIP Code', { exact: true }).fill(lead.zipCode);
    await page.getByLabel('Phone Number', { exact: true }).fill(lead.phone);
    await page.getByLabel('Birth Day', { exact: true }).selectOption(lead.birthDay);
    await page.getByLabel('Birth Year', { exact: true }).selectOption(lead.birthYear);
    await page.getByRole('button', { name: 'Search Now' }).click();
    await page.getByRole('dialog', { name: 'Who is your beneficiary?' }).waitFor();
    // Stored at all means consent was sent (the server refuses a lead without it).
    const stored = await storedLead(email);
    if (stored !== undefined) expect(stored).toEqual({ first_name: 'Early', birth_month: '5' });
    await context.close();
  });
});

describe('every public page', () => {
  it.each(PUBLIC_PAGES)('$path renders its content, title and description on a full page load', async (p) => {
    const { context, page } = await openPage(browser, p.path);
    await page.getByRole('heading', { level: 1, name: p.heading }).waitFor();
    for (const t of p.text) await page.getByText(t).first().waitFor();
    await expect.poll(() => page.title()).toMatch(/\S/);
    const description = await page.locator('meta[name="description"]').getAttribute('content');
    expect(description?.length ?? 0).toBeGreaterThan(20);
    await context.close();
  });

  it('numbers exactly 8 terms sections and 9 privacy sections', async () => {
    const { context, page } = await openPage(browser, '/terms');
    await page.getByRole('heading', { level: 1, name: 'Terms & Conditions' }).waitFor();
    expect(await page.getByRole('heading', { level: 2, name: /^\d+\. / }).count()).toBe(8);
    await gotoReady(page, '/privacy');
    await page.getByRole('heading', { level: 1, name: 'Privacy Policy' }).waitFor();
    expect(await page.getByRole('heading', { level: 2, name: /^\d+\. / }).count()).toBe(9);
    await context.close();
  });

  it('answers / with the prerendered page: hero, form and consent text readable before any script runs', async () => {
    const res = await fetch(`${baseUrl()}/`, { headers: { 'accept-encoding': 'identity' } });
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const text of [
      'Find Out If Unclaimed Money Is Waiting For You',
      'Start Your Free Search',
      'Claim Your Assets',
      'First Name',
      'Birth Year',
      '<option value="1994">1994</option>',
      'By checking this box',
      'Search Now',
    ]) {
      expect(html, text).toContain(text);
    }
    const missing = await fetch(`${baseUrl()}/no-such-page`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('404 Page Not Found');
  });

  const htmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/'/g, '&#x27;');

  it.each(PUBLIC_PAGES)(
    '$path is answered prerendered: its heading in the HTML before any script, dates filled in',
    async (p) => {
      const timeZone = process.env.TIME_ZONE ?? 'America/New_York';
      const before = pageDates(new Date(), timeZone);
      const res = await fetch(`${baseUrl()}${p.path}`, { headers: { 'accept-encoding': 'identity' } });
      const after = pageDates(new Date(), timeZone);
      expect(res.status).toBe(p.path === '/no-such-page' ? 404 : 200);
      const html = await res.text();
      // React separates adjacent text with <!-- --> in server-rendered HTML.
      const root = html.slice(html.indexOf('<div id="root">')).replaceAll('<!-- -->', '');
      const heading = typeof p.heading === 'string' ? htmlText(p.heading) : p.heading;
      expect(root).toMatch(/<h1[^>]*>/);
      expect(root.match(/<h1[^>]*>([\s\S]*?)<\/h1>/)?.[1]).toMatch(heading);
      // The server filled in today's date (business time zone) and handed the same one to the app.
      expect(html).not.toContain('%%PAGE_');
      const config = JSON.parse(
        (html.match(/<meta name="app-config" content="([^"]*)"/)?.[1] ?? '{}').replace(/&quot;/g, '"'),
      );
      expect([before.today, after.today]).toContain(config.dates?.today);
      expect(root).toContain(`© ${config.dates.year}`);
      if (p.text.some((t) => String(t).includes('Last updated'))) {
        expect(root).toContain(`Last updated: ${config.dates.today}`);
      }
    },
  );

  it.each(PUBLIC_PAGES)(
    '$path hydrates the prerendered markup as it is, with no warning or error logged',
    async (p) => {
      const context = await browser.newContext({ baseURL: baseUrl() });
      const page = await context.newPage();
      const logged: string[] = [];
      page.on('console', (msg) => {
        const ignored = msg.text().includes('Failed to load resource') && p.path === '/no-such-page';
        if ((msg.type() === 'error' || msg.type() === 'warning') && !ignored) logged.push(msg.text());
      });
      page.on('pageerror', (err) => logged.push(err.message));
      // Hold the app's code back until the prerendered heading is marked: if hydration threw the server's
      // markup away and rendered anew, the mark would be gone.
      const release = await holdApp(page);
      await page.goto(p.path, { waitUntil: 'domcontentloaded' });
      await page.evaluate(() => {
        const h1 = document.querySelector('#root h1') as (HTMLElement & { prerendered?: boolean }) | null;
        if (h1) h1.prerendered = true;
      });
      await interact(page);
      release();
      await page.waitForSelector('html[data-app-ready="true"]', { state: 'attached' });
      await networkQuiet(page);
      const kept = await page.evaluate(
        () =>
          (document.querySelector('#root h1') as (HTMLElement & { prerendered?: boolean }) | null)
            ?.prerendered,
      );
      expect(kept).toBe(true);
      expect(logged).toEqual([]);
      await context.close();
    },
  );

  it('on a phone, the hero call to action is above the fold and takes the visitor to the form', async () => {
    const { context, page } = await openPage(browser, '/', { viewport: { width: 390, height: 844 } });
    const cta = page.getByRole('link', { name: 'Start Your Free Search' });
    const box = await cta.boundingBox();
    expect(box && box.y + box.height).toBeLessThanOrEqual(844);
    const first = page.getByLabel('First Name', { exact: true });
    // The prerendered page is readable at once; its controls act once hydrated (the fields then take input).
    await expect.poll(() => first.isEditable()).toBe(true);
    await cta.click();
    await expect.poll(() => first.evaluate((el) => el === document.activeElement)).toBe(true);
    await expect
      .poll(async () => {
        const b = await first.boundingBox();
        return Boolean(b && b.y >= 0 && b.y + b.height <= 844);
      })
      .toBe(true);
    await context.close();
  });

  it('has the footer links and the support mailto on the landing page', async () => {
    const { context, page } = await openPage(browser, '/');
    const footer = page.getByRole('navigation', { name: 'Footer' });
    for (const href of ['/terms', '/privacy', '/privacy-notice', '/ca-privacy', '/contact', '/unsubscribe']) {
      expect(await footer.locator(`a[href="${href}"]`).count()).toBe(1);
    }
    expect(await footer.locator('a[href^="mailto:"]').count()).toBe(1);
    await page
      .getByText(/not affiliated with, endorsed by or connected to any government agency/)
      .first()
      .waitFor();
    await context.close();
  });

  it('loads nothing from other origins when no ad pixel is configured', async () => {
    const context = await browser.newContext({ baseURL: baseUrl() });
    const page = await context.newPage();
    const foreign: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(baseUrl()) && !r.url().startsWith('data:')) foreign.push(r.url());
    });
    await gotoReady(page, '/');
    await page.waitForLoadState('networkidle');
    expect(foreign).toEqual([]);
    await context.close();
  });

  it('fits a 360 px phone without horizontal scrolling (screenshot in test-results/)', async () => {
    const { context, page } = await openPage(browser, '/', { viewport: { width: 360, height: 740 } });
    await page.getByRole('button', { name: 'Search Now' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const dir = path.resolve(import.meta.dirname, '../test-results');
    mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: path.join(dir, 'landing-phone-360.png'), fullPage: true });
    await context.close();
  });
});
