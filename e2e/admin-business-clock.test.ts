import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseHeaderAction, signInThroughForm } from './support/admin';
import { baseUrl, gotoReady, launchBrowser, uniqueEmail } from './support/browser';

// One clock (issue 26, ADR 060): a browser in Tokyo sees the admin's dates and times in the server's
// TIME_ZONE (the e2e server runs with America/New_York), labelled ET; date presets are New York days;
// the leads table fits its card at 1440 px with each row's actions in view.

const NY = 'America/New_York';
const TOKYO = 'Asia/Tokyo';
// An everyday name: the width check is about ordinary rows (long values are cut with an ellipsis).
const LAST_NAME = 'Clark';
const EMAIL = uniqueEmail('clock');

let browser: Browser;
let context: BrowserContext;
let page: Page;

const inZone = (iso: string, timeZone: string, withSeconds = true) =>
  new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    ...(withSeconds ? { second: '2-digit' as const } : {}),
  }).format(new Date(iso));

beforeAll(async () => {
  browser = await launchBrowser();
  const res = await fetch(`${baseUrl()}/api/submit-search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      firstName: 'Tokyo',
      lastName: LAST_NAME,
      streetAddress: '1 Clock St',
      zipCode: '10001',
      email: EMAIL,
      phone: '(212) 555-0199',
      birthMonth: '1',
      birthDay: '2',
      birthYear: '1950',
      consentGiven: 'true',
    }),
  });
  expect(res.status).toBe(200);
  context = await browser.newContext({
    baseURL: baseUrl(),
    timezoneId: TOKYO,
    viewport: { width: 1440, height: 900 },
  });
  page = await context.newPage();
  await gotoReady(page, '/admin/login');
  await signInThroughForm(page);
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('the business clock, seen from a browser in Tokyo', () => {
  it('the browser really is in Tokyo', async () => {
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(TOKYO);
  });

  it('shows a lead created now in New York time, labelled ET, with its row actions in view', async () => {
    const answer = await page.request.get(`/api/admin/leads?search=${encodeURIComponent(EMAIL)}`);
    expect(answer.ok()).toBe(true);
    const [lead] = (await answer.json()) as { createdAt: string }[];
    expect(lead).toBeDefined();
    const createdAt = lead?.createdAt ?? '';

    await page.getByRole('searchbox', { name: 'Search' }).first().fill(EMAIL);
    const table = page.getByRole('table').first();
    const row = table.getByRole('row').filter({ hasText: EMAIL });
    await row.waitFor();

    const headers = await table.getByRole('columnheader').allTextContents();
    const at = headers.findIndex((h) => h.startsWith('Created At'));
    expect(headers[at]?.replace(/[ ▲▼]+$/, '')).toBe('Created At (ET)');
    const cell = (await row.getByRole('cell').nth(at).textContent()) ?? '';
    // To the minute in the table (whole, with seconds, in the drawer).
    expect(cell).toBe(inZone(createdAt, NY, false));
    expect(inZone(createdAt, NY, false)).not.toBe(inZone(createdAt, TOKYO, false));

    // At 1440 px the row's View and Delete are on screen and inside the card, without scrolling.
    // The card around this table (the API leads' card holds a table too).
    const card = table.locator('xpath=ancestor::div[contains(@class, "mantine-Card-root")][1]');
    const cardBox = await card.boundingBox();
    for (const name of [/^View lead Tokyo/, /^Delete lead Tokyo/]) {
      const box = await row.getByRole('button', { name }).boundingBox();
      expect(box).not.toBeNull();
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(
        (cardBox?.x ?? 0) + (cardBox?.width ?? 0),
      );
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(1440);
    }
    // The Created At column is readable in the card too (not cut at its right edge).
    const createdHeader = table.getByRole('columnheader').nth(at);
    const headerBox = await createdHeader.boundingBox();
    expect((headerBox?.x ?? 0) + (headerBox?.width ?? 0)).toBeLessThanOrEqual(
      (cardBox?.x ?? 0) + (cardBox?.width ?? 0),
    );

    // The consent receipt in the drawer: "Recorded at" in New York time, named.
    await row.getByRole('button', { name: /^View lead Tokyo/ }).click();
    const drawer = page.getByRole('dialog', { name: /Lead Tokyo/ });
    const recorded = drawer.getByRole('row').filter({ hasText: 'Recorded at' });
    await recorded.waitFor();
    const recordedText = (await recorded.textContent()) ?? '';
    const receiptIso = /\((\d{4}-\d\d-\d\dT[^)]+)\)/.exec(recordedText)?.[1] ?? '';
    expect(recordedText).toContain(`${inZone(receiptIso, NY)} ET`);
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
  });

  it('says what the date filters mean', async () => {
    await page.getByText('Dates are whole days in ET (America/New_York).').first().waitFor();
  });

  it('shows audit log times in New York time', async () => {
    await chooseHeaderAction(page, 'Audit Log');
    const dialog = page.getByRole('dialog', { name: 'Audit Log' });
    await dialog.getByRole('columnheader', { name: 'Time (ET)' }).waitFor();
    const first = dialog.locator('tbody tr').first();
    await first.waitFor();
    const shown = (await first.locator('td').first().textContent()) ?? '';
    const answer = await page.request.get('/api/admin/audit-log?limit=20');
    const entries = (await answer.json()) as { createdAt: string }[];
    expect(entries.map((e) => inZone(e.createdAt, NY))).toContain(shown);
    expect(entries.map((e) => inZone(e.createdAt, TOKYO))).not.toContain(shown);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  it("date presets are New York days even when Tokyo's calendar has moved on; the cards name the range", async () => {
    // 02:30 UTC: the 25th in Tokyo, still the 24th in New York.
    await page.clock.setFixedTime(new Date('2026-11-25T02:30:00Z'));
    await gotoReady(page, '/admin/analytics');
    await page.getByRole('group', { name: 'Date presets' }).getByRole('button', { name: 'Today' }).click();
    await page.waitForURL(/startDate=2026-11-24/);
    expect(new URL(page.url()).searchParams.get('endDate')).toBe('2026-11-24');
    await page.getByRole('group', { name: 'Date presets' }).getByRole('button', { name: '7 days' }).click();
    await page.waitForURL(/startDate=2026-11-18/);
    // Every card names the range it counts; Total Page Views no longer says 'All time' above a 7-day range
    // (issue 37): the spec's caption is for the page without dates.
    const pageViews = page.getByRole('group', { name: 'Total Page Views' });
    await pageViews.getByText('In the dates below').waitFor();
    expect(await pageViews.getByText('All time').count()).toBe(0);
    await pageViews.getByTestId('card-range').filter({ hasText: 'Nov 18 – Nov 24, 2026 (ET)' }).waitFor();
    const ranges = await page.getByTestId('card-range').allTextContents();
    expect(ranges.length).toBeGreaterThanOrEqual(6);
    expect(new Set(ranges)).toEqual(new Set(['Nov 18 – Nov 24, 2026 (ET)']));
  });
});
