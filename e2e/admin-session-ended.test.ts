import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { E2E_ADMIN, signInThroughForm } from './support/admin';
import { baseUrl, gotoReady, launchBrowser, networkQuiet } from './support/browser';

// Issue 37 (finding 1): a session that ends while a tab is open (Logout in another tab, Sessions → End
// elsewhere) sends that tab to the sign-in page once, saying so, whichever control noticed it. Refresh
// used to bounce between /admin/leads and /admin/login hundreds of times a second: the sign-in page
// trusted the cached "signed in" answer and sent the tab straight back.

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Every navigation of the page's main frame from now on (history API ones included). */
function countNavigations(page: Page): () => string[] {
  const urls: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) urls.push(new URL(frame.url()).pathname);
  });
  return () => urls;
}

/**
 * Ends the tab's session as Logout in a second tab of the same browser would: the same cookies, but no page
 * opened, since a tab opened and closed gives this one the focus back, and its queries' refetch on focus
 * would find the session ended before the control under test is pressed.
 */
async function logoutInAnotherTab(page: Page): Promise<void> {
  const res = await page.context().request.post('/api/admin/logout', {
    headers: { 'content-type': 'application/json', origin: new URL(page.url()).origin },
    data: {},
  });
  expect(res.ok()).toBe(true);
}

async function expectSentToSignInOnce(page: Page, navigations: () => string[]) {
  await page.getByText('Your session ended').waitFor();
  await networkQuiet(page, 1000);
  expect(new URL(page.url()).pathname).toBe('/admin/login');
  // The control's own navigation (a filter writes the URL) may come first; then the sign-in page, once.
  const seen = navigations();
  expect(seen.slice(seen.indexOf('/admin/login'))).toEqual(['/admin/login']);
  expect(seen).not.toContain('/admin/leads');
  await page.getByRole('button', { name: 'Sign In' }).waitFor();
}

describe('a session that ends while the dashboard is open', () => {
  it('Refresh on /admin/leads goes to the sign-in page once, with "Your session ended"', async () => {
    const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await gotoReady(page, '/admin/login');
    await signInThroughForm(page);
    await page.getByRole('heading', { name: /^Leads Data \(\d+ records\)$/ }).waitFor();

    await logoutInAnotherTab(page);
    const navigations = countNavigations(page);
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await expectSentToSignInOnce(page, navigations);

    // Signing in again works and the notice does not follow the admin back in.
    await signInThroughForm(page);
    await page.getByRole('heading', { name: /^Leads Data \(\d+ records\)$/ }).waitFor();
    expect(await page.getByText('Your session ended').count()).toBe(0);
    await context.close();
  });

  it('a filter change on /admin/analytics does the same', async () => {
    const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await gotoReady(page, '/admin/login');
    await signInThroughForm(page);
    await page.getByRole('button', { name: 'Analytics', exact: true }).click();
    await page.getByRole('heading', { name: 'Analytics Dashboard' }).waitFor();
    await networkQuiet(page);

    await logoutInAnotherTab(page);
    const navigations = countNavigations(page);
    await page.getByLabel('Event Type').selectOption('page_view');
    await expectSentToSignInOnce(page, navigations);
    await context.close();
  });

  // The screens added beside the dashboard (review queue, ad costs) kept a redirect of their own, which
  // raced the guard's and sent the tab to a bare /admin/login: no notice, no way back to the screen.
  it.each([
    {
      path: '/admin/quality/review',
      heading: 'Review queue',
      control: (page: Page) => page.getByRole('button', { name: 'Refresh', exact: true }).click(),
    },
    {
      path: '/admin/costs',
      heading: 'Ad costs',
      control: (page: Page) => page.getByLabel('From', { exact: true }).fill('2026-01-01'),
    },
  ])('a control on $path does the same and keeps the way back', async ({ path, heading, control }) => {
    const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await gotoReady(page, '/admin/login');
    await signInThroughForm(page);
    await page.goto(path);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    await networkQuiet(page);

    await logoutInAnotherTab(page);
    const navigations = countNavigations(page);
    await control(page);
    await expectSentToSignInOnce(page, navigations);
    expect(new URL(page.url()).searchParams.get('next')).toBe(path);

    // Signing in again goes back to the screen the session ended on.
    await page.getByLabel('Username').fill(E2E_ADMIN.username);
    await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(`**${path}`);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    await context.close();
  });

  // Signed out from the start (a bookmark): the same guard, no notice, and the way back kept.
  it.each(['/admin/buyers', '/admin/costs', '/admin/quality/settings'])(
    '%s opened while signed out goes to the sign-in page, then back to it',
    async (path) => {
      const context = await browser.newContext({
        baseURL: baseUrl(),
        viewport: { width: 1440, height: 900 },
      });
      const page = await context.newPage();
      await page.goto(path);
      await page.waitForURL((url) => url.pathname === '/admin/login');
      expect(new URL(page.url()).searchParams.get('next')).toBe(path);
      await page.getByRole('button', { name: 'Sign In' }).waitFor();
      expect(await page.getByText('Your session ended').count()).toBe(0);
      await page.getByLabel('Username').fill(E2E_ADMIN.username);
      await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN.password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.waitForURL(`**${path}`);
      await context.close();
    },
  );
});
