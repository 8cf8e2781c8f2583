import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInThroughForm } from './support/admin';
import { baseUrl, holdApp, interact, launchBrowser, networkQuiet, openPage } from './support/browser';

const DESKTOP_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

// Landing experiments in Chromium (issue 48, ADR 075): an arm's copy is in the first paint and hydration
// keeps it — the same heading node, the same text, nothing logged (no flicker) — and the admin's screens
// show a draft and its arms; then the analytics filtered by the arm one visitor was served. The draft is
// seen through its preview (`?arm=&experiment=`); it runs only while that one visitor loads the page (a
// running experiment changes the landing page, and e2e files share this server, one file at a time).

const OWED_H1 = 'Your State May Owe You Money';
const OWED_BUTTON = 'Check What You Are Owed';

let browser: Browser;
let context: BrowserContext;
let admin: Page;
let experimentId = '';

beforeAll(async () => {
  browser = await launchBrowser();
  ({ context, page: admin } = await openPage(browser, '/admin/login', {
    viewport: { width: 1440, height: 900 },
  }));
  await signInThroughForm(admin);
  const created = await admin.request.post('/api/admin/experiments', {
    headers: { origin: baseUrl() },
    data: {
      name: `E2E headline ${Date.now().toString(36)}`,
      primaryMetric: 'revenue_per_visitor',
      arms: [
        { key: 'control', name: 'Control', weight: 50, content: {} },
        {
          key: 'owed',
          name: 'Owed',
          weight: 50,
          content: { headline: OWED_H1, heroButton: OWED_BUTTON, formFirst: false },
        },
      ],
    },
  });
  expect(created.status()).toBe(201);
  experimentId = ((await created.json()) as { id: string }).id;
});
afterAll(async () => {
  if (admin && experimentId)
    await admin.request.delete(`/api/admin/experiments/${experimentId}`, { headers: { origin: baseUrl() } });
  await context?.close();
  await browser?.close();
});

describe('an arm of a landing experiment', () => {
  it('paints its copy before any script and hydration keeps it, with nothing logged', async () => {
    const visitor = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 390, height: 844 } });
    const page = await visitor.newPage();
    const logged: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warning') logged.push(msg.text());
    });
    page.on('pageerror', (err) => logged.push(err.message));
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    const release = await holdApp(page);
    await page.goto(`/?arm=owed&experiment=${experimentId}`, { waitUntil: 'domcontentloaded' });
    // Before the app: the arm's heading and button are what the visitor reads.
    expect(await page.locator('#root h1').textContent()).toBe(OWED_H1);
    await expect.poll(() => page.getByRole('link', { name: OWED_BUTTON }).count()).toBe(1);
    // On a phone, the explanation comes before the form in this arm (formFirst: false).
    const order = await page.evaluate(() => {
      const form = document.getElementById('search')?.getBoundingClientRect().top ?? 0;
      const owed = document.getElementById('owed-heading')?.getBoundingClientRect().top ?? 0;
      return form > owed ? 'explanation first' : 'form first';
    });
    expect(order).toBe('explanation first');
    await page.evaluate(() => {
      const h1 = document.querySelector('#root h1') as (HTMLElement & { prerendered?: boolean }) | null;
      if (h1) h1.prerendered = true;
    });
    await interact(page);
    release();
    await page.waitForSelector('html[data-app-ready="true"]', { state: 'attached' });
    await networkQuiet(page);
    const after = await page.evaluate(() => {
      const h1 = document.querySelector('#root h1') as (HTMLElement & { prerendered?: boolean }) | null;
      return { kept: h1?.prerendered, text: h1?.textContent };
    });
    expect(after).toEqual({ kept: true, text: OWED_H1 });
    expect(await page.getByRole('link', { name: OWED_BUTTON }).count()).toBe(1);
    expect(logged).toEqual([]);
    // The page's scripts are the landing page's own: nothing was added for the arm.
    expect(scripts.every((s) => s.startsWith('/assets/'))).toBe(true);
    await visitor.close();
  });

  it('shows in the admin’s Experiments list and editor', async () => {
    await admin.goto('/admin/experiments');
    await admin.getByRole('heading', { name: 'Experiments', level: 1 }).waitFor();
    const link = admin.getByRole('link', { name: /^E2E headline/ }).first();
    await link.click();
    await admin.getByRole('heading', { name: 'Edit experiment' }).waitFor();
    expect(
      await admin
        .getByLabel(/^headline/)
        .nth(0)
        .inputValue(),
    ).toBe(OWED_H1);
    expect(await admin.getByText(/visitors per arm to find a 20 % lift on a 5 % rate/).count()).toBe(1);
    expect(await admin.getByRole('button', { name: 'Start' }).count()).toBe(1);
  });

  it('previews each arm in the editor at a phone’s and a laptop’s width, live as the copy is typed', async () => {
    const logged: string[] = [];
    const log = (msg: { type(): string; text(): string }) => {
      if (msg.type() === 'error') logged.push(msg.text());
    };
    admin.on('console', log);
    const phone = admin.frameLocator('iframe[title="Owed on a phone"]');
    const laptop = admin.frameLocator('iframe[title="Owed on a laptop"]');
    await expect.poll(() => phone.locator('h1').textContent()).toBe(OWED_H1);
    await expect.poll(() => laptop.locator('h1').textContent()).toBe(OWED_H1);
    // The control's frames show the page as it is.
    await expect
      .poll(() => admin.frameLocator('iframe[title="Control on a phone"]').locator('h1').textContent())
      .toBe('Find Out If Unclaimed Money Is Waiting For You');
    // Typed, not saved: the frames follow.
    await admin
      .getByLabel(/^headline/)
      .nth(0)
      .fill('Money Held In Your Name');
    await expect.poll(() => phone.locator('h1').textContent()).toBe('Money Held In Your Name');
    // The page's own stylesheet is applied in the frame (its heading is not the browser's default serif).
    const font = await phone.locator('h1').evaluate((h) => getComputedStyle(h).fontFamily);
    expect(font).not.toMatch(/^"?Times/);
    // Sandboxed: no script of the page runs there, so nothing is counted and nothing logged.
    expect(await phone.locator('html').getAttribute('data-app-ready')).toBeNull();
    await admin
      .getByLabel(/^headline/)
      .nth(0)
      .fill(OWED_H1);
    await expect.poll(() => phone.locator('h1').textContent()).toBe(OWED_H1);
    admin.off('console', log);
    expect(logged).toEqual([]);
  });

  it('filters the analytics by the arm a visitor was served, from the results page', async () => {
    // Started only while one visitor loads the page, then stopped: e2e files run one at a time, and the
    // landing page is back to the control before this test looks at the dashboard.
    const start = await admin.request.post(`/api/admin/experiments/${experimentId}/start`, {
      headers: { origin: baseUrl() },
    });
    expect(start.status()).toBe(200);
    const campaign = `exp-${experimentId.slice(0, 8)}`;
    const visitor = await browser.newContext({
      baseURL: baseUrl(),
      userAgent: DESKTOP_UA,
      extraHTTPHeaders: { 'x-forwarded-for': '198.18.220.48' },
    });
    const page = await visitor.newPage();
    let heading: string | null;
    try {
      await page.goto(`/?utm_source=e2e-arms&utm_medium=cpc&utm_campaign=${campaign}`);
      heading = await page.locator('#root h1').textContent();
      await interact(page);
      await page.waitForSelector('html[data-app-ready="true"]', { state: 'attached' });
      await networkQuiet(page);
    } finally {
      const stop = await admin.request.post(`/api/admin/experiments/${experimentId}/stop`, {
        headers: { origin: baseUrl() },
        data: {},
      });
      expect(stop.status()).toBe(200);
    }
    await visitor.close();
    const arm = heading === OWED_H1 ? 'Owed' : 'Control';

    await admin.goto(`/admin/experiments/${experimentId}`);
    await admin.getByRole('link', { name: `${arm}: its visitors and leads by source` }).click();
    await admin.getByRole('heading', { name: 'Analytics Dashboard', level: 1 }).waitFor();
    expect(await admin.getByLabel('Experiment').inputValue()).toBe(experimentId);
    expect(await admin.getByLabel('Arm').inputValue()).toBe(arm.toLowerCase());
    await admin.getByText(/^Under an experiment: the visitors its page was shown to/).waitFor();
    // The visitor's row: one visitor from the campaign, in this arm only.
    const row = admin.getByRole('row').filter({ hasText: campaign });
    await expect
      .poll(async () => {
        if ((await row.count()) === 0) await admin.reload();
        return row.count();
      })
      .toBe(1);
    const visitors = admin.getByRole('group', { name: 'Visitors', exact: true }).getByTestId('card-value');
    expect(await visitors.textContent()).toBe('1');
    // The other arm: nobody.
    await admin.getByLabel('Arm').selectOption({ label: arm === 'Owed' ? 'Control' : 'Owed' });
    await expect.poll(() => visitors.textContent()).toBe('0');
    expect(await row.count()).toBe(0);
  });
});
