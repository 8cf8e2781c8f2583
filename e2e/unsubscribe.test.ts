import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe';
import { baseUrl, launchBrowser, openPage, uniqueEmail } from './support/browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** What the server holds for an address, read through the admin data-request API (e2e admin account). */
async function suppressionOf(email: string): Promise<{ kind: string; source: string }[]> {
  const login = await fetch(`${baseUrl()}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'e2e-admin', password: 'e2e-password-123' }),
  });
  expect(login.status).toBe(200);
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const lookup = await fetch(`${baseUrl()}/api/admin/data-requests/lookup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ email }),
  });
  expect(lookup.status).toBe(200);
  return (await lookup.json()).suppression;
}

describe('/unsubscribe', () => {
  it('records the address and shows the spec screen after about 2 seconds', async () => {
    const { context, page } = await openPage(browser, '/unsubscribe');
    const email = uniqueEmail('unsub');
    const field = page.getByLabel('Email Address');
    expect(await field.getAttribute('type')).toBe('email');
    expect(await field.getAttribute('required')).not.toBeNull();
    const button = page.getByRole('button', { name: 'Unsubscribe' });
    expect(await button.isDisabled()).toBe(true);
    await field.fill('   ');
    expect(await button.isDisabled()).toBe(true);
    await field.fill(email);
    expect(await button.isDisabled()).toBe(false);

    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().includes('/api/trpc/privacy.unsubscribe')),
      button.click(),
    ]);
    const clickedAt = Date.now();
    expect(request.method()).toBe('POST');
    const processing = page.getByRole('button', { name: 'Processing...' });
    await processing.waitFor();
    expect(await processing.isDisabled()).toBe(true);

    await page.getByRole('heading', { name: 'Successfully Unsubscribed' }).waitFor();
    expect(Date.now() - clickedAt).toBeGreaterThanOrEqual(1800);
    await page.getByText(/up to 48 hours/).waitFor();
    for (const alternative of ['Reduce frequency', 'Update preferences', 'Temporary pause']) {
      await page.getByText(alternative, { exact: true }).waitFor();
    }
    expect(await axeViolations(page)).toEqual([]);
    expect(await suppressionOf(email)).toEqual([
      expect.objectContaining({ kind: 'email', source: 'unsubscribe_page' }),
    ]);
    await context.close();
  });

  it('explains a malformed address instead of sending it', async () => {
    const { context, page } = await openPage(browser, '/unsubscribe');
    let sent = false;
    page.on('request', (r) => {
      if (r.url().includes('privacy.unsubscribe')) sent = true;
    });
    await page.getByLabel('Email Address').fill('not-an-address');
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.getByText(/^Please enter a valid email address/).waitFor();
    expect(sent).toBe(false);
    await context.close();
  });
});
