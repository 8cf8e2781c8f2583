import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { inject } from 'vitest';

// Debian's Chromium driven by playwright-core: no browser download ever happens.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: apt-get install -y chromium (or set CHROMIUM_PATH)`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: FLAGS });
}

export function baseUrl(): string {
  return inject('baseUrl');
}

/** A fresh browser context (own cookies and storage) with a page on baseUrl + path. */
export async function openPage(
  browser: Browser,
  path = '/',
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl(), ...options });
  const page = await context.newPage();
  await gotoReady(page, path);
  return { context, page };
}

/**
 * Opens `path` and waits until the app runs. A prerendered page is readable at once and starts its app on
 * the visitor's first interaction (ADR 053): a mouse movement here, as a visitor's would be.
 */
export async function gotoReady(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await interact(page);
  await page.waitForSelector('html[data-app-ready="true"]', { state: 'attached' });
}

/** The visitor's first sign of presence, which starts a prerendered page's app. */
export async function interact(page: Page): Promise<void> {
  await page.mouse.move(3, 3);
}

let counter = 0;
export function uniqueEmail(tag = 'e2e'): string {
  counter += 1;
  return `${tag}.${Date.now().toString(36)}.${counter}@example.com`;
}

/**
 * Resolves once the page has had no request in flight for `quietMs`: the condition to wait on before
 * asserting that something does *not* happen (no second page_view, no late violation), instead of a
 * fixed sleep that a busy machine outruns.
 */
export async function networkQuiet(page: Page, quietMs = 500, timeoutMs = 30_000): Promise<void> {
  let inFlight = 0;
  let lastActivity = Date.now();
  const started = () => {
    inFlight += 1;
    lastActivity = Date.now();
  };
  const ended = () => {
    inFlight = Math.max(0, inFlight - 1);
    lastActivity = Date.now();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  try {
    const deadline = Date.now() + timeoutMs;
    while (inFlight > 0 || Date.now() - lastActivity < quietMs) {
      if (Date.now() > deadline)
        throw new Error(`the network was not quiet for ${quietMs} ms within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    page.off('request', started);
    page.off('requestfinished', ended);
    page.off('requestfailed', ended);
  }
}

/**
 * The app's last chunk held back (the entry script runs; the app cannot start yet) until the returned
 * function is called, or, with 'fail', never delivered (a failed download).
 */
export async function holdApp(page: Page, how: 'hold' | 'fail' = 'hold'): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/app-start-[^/]+\.js$/, async (route) => {
    if (how === 'fail') return route.abort();
    await held;
    return route.continue();
  });
  return release;
}

/**
 * A toast watched from before the action that shows it: it lives 5 s (spec §8), which a loaded machine can
 * spend on a navigation. Once it shows, the pointer rests on it, which pauses it (Mantine), so the test can
 * read it at its own pace. Await the result after the action.
 */
export function pinToast(page: Page, text: string | RegExp) {
  const toast = page.locator('.mantine-Notification-root').filter({ hasText: text });
  return toast
    .waitFor({ timeout: 30_000 })
    .then(() => toast.hover())
    .then(() => toast);
}
