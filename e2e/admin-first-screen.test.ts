import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInThroughForm } from './support/admin';
import { baseUrl, gotoReady, holdApp, launchBrowser } from './support/browser';

// Spec §2 /admin/leads: "First shows 'Checking authentication...'". The admin area's code is the largest of
// the app (≈1 s after the document on this machine, more on a loaded one), so the server's document for a
// page behind sign-in already shows it (ADR 071); the app's own screen takes over, never both at once.

const CHECKING = 'Checking authentication...';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const visibleChecking = (page: Page) => page.getByText(CHECKING).filter({ visible: true });

describe('the first screen of an admin page', () => {
  it.each([
    '/admin/leads',
    '/admin/analytics',
    '/admin/leads/00000000-0000-4000-8000-000000000000',
    '/admin/buyers',
  ])('%s shows "Checking authentication..." before any script has run', async (path) => {
    const context = await browser.newContext({ baseURL: baseUrl(), javaScriptEnabled: false });
    const page = await context.newPage();
    const res = await page.goto(path);
    expect(res?.status()).toBe(200);
    expect(await visibleChecking(page).count()).toBe(1);
    await context.close();
  });

  it('the sign-in page never says it', async () => {
    const context = await browser.newContext({ baseURL: baseUrl(), javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/admin/login');
    expect(await page.getByText(CHECKING).count()).toBe(0);
    await context.close();
  });

  it('shows it while the app loads and checks the session, once, then the dashboard alone', async () => {
    const context = await browser.newContext({ baseURL: baseUrl(), viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await gotoReady(page, '/admin/login');
    await signInThroughForm(page);
    await page.getByRole('heading', { name: /^Leads Data \(\d+ records\)$/ }).waitFor();

    // A fresh load with the app's code held back: the document's own screen.
    const releaseApp = await holdApp(page);
    let releaseCheck = () => {};
    const checkHeld = new Promise<void>((resolve) => {
      releaseCheck = resolve;
    });
    await page.route(/\/api\/trpc\/[^?]*adminAuth\.me/, async (route) => {
      await checkHeld;
      await route.continue();
    });
    await page.goto('/admin/leads', { waitUntil: 'domcontentloaded' });
    await visibleChecking(page).waitFor();
    expect(await visibleChecking(page).count()).toBe(1);

    // The app runs and asks for the session: its own screen says it, the document's is gone.
    releaseApp();
    await page.locator('main').getByText(CHECKING).waitFor();
    expect(await visibleChecking(page).count()).toBe(1);

    releaseCheck();
    await page.getByRole('heading', { name: /^Leads Data \(\d+ records\)$/ }).waitFor();
    expect(await visibleChecking(page).count()).toBe(0);
    await context.close();
  });

  it('signed out, it goes to the sign-in page, which does not say it', async () => {
    const context = await browser.newContext({ baseURL: baseUrl() });
    const page = await context.newPage();
    await page.goto('/admin/leads');
    await page.waitForURL('**/admin/login**');
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    expect(await visibleChecking(page).count()).toBe(0);
    await context.close();
  });
});
