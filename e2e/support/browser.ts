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
