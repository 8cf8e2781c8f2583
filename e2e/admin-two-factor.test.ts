import { Secret, TOTP } from 'otpauth';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseHeaderAction, signInThroughForm } from './support/admin';
import { axeViolations, describeViolations } from './support/axe';
import { launchBrowser, pinToast } from './support/browser';
import { type BuiltServer, startBuiltServer } from './support/built-server';
import { createScratchDatabase, type ScratchDatabase } from './support/database';

// Issue 25 through the screens: an admin enrols in two-factor sign-in on the Account screen (the key
// shown as text, the code computed from it as an authenticator app would), then signs in with the
// code in the login form's second step. Its own server and admin: the shared e2e admin signs in with
// a password alone in the other files at the same time.

const ADMIN = { username: 'e2e-2fa', password: 'e2e-2fa-password-123' };
let browser: Browser;
let server: BuiltServer;
let database: ScratchDatabase | null = null;

beforeAll(async () => {
  database = await createScratchDatabase('uf_e2e_2fa');
  [server, browser] = await Promise.all([
    startBuiltServer({
      DATABASE_URL: database?.url ?? '',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
    }),
    launchBrowser(),
  ]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await database?.drop();
});

const codeFor = (secret: string, timestamp = Date.now()) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp });

describe('two-factor sign-in through the screens', () => {
  it('enrols on the Account screen and signs in with the code', async () => {
    const context = await browser.newContext({ baseURL: server.url });
    const page = await context.newPage();
    await page.goto('/admin/login');
    await signInThroughForm(page, ADMIN);

    await chooseHeaderAction(page, 'Account');
    await page.waitForURL('**/admin/account');
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    const secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByLabel('Code from the app').fill(codeFor(secret));
    await page.getByRole('button', { name: 'Confirm' }).click();
    const codes = page.getByLabel('Recovery codes').locator('code');
    await codes.first().waitFor();
    expect(await codes.count()).toBe(10);
    const recoveryCodes = await codes.allTextContents();
    await page.getByRole('button', { name: 'I have saved these codes' }).click();
    await page.getByText('Recovery codes left: 10').waitFor();
    // Issue 37: the Account screen with two-factor on — axe finds nothing (the "On" badge was 3.44:1, the
    // sessions' actions column had no header); session times in ET, the browser by name.
    await page.getByRole('columnheader', { name: 'Signed in (ET)' }).waitFor();
    expect(await page.getByRole('table', { name: 'Sessions' }).textContent()).not.toContain('Mozilla/');
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await context.close();

    // A new browser: the password alone leads to the second step, the code signs in.
    const fresh = await browser.newContext({ baseURL: server.url });
    const login = await fresh.newPage();
    await login.goto('/admin/login');
    await login.getByLabel('Username').fill(ADMIN.username);
    await login.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await login.getByRole('button', { name: 'Sign In' }).click();
    const codeField = login.getByLabel('Authentication code');
    await codeField.waitFor();
    expect(login.url()).toContain('/admin/login');
    // The next step's code: the enrolment used this one, and a code is never accepted twice.
    await codeField.fill(codeFor(secret, Date.now() + 30_000));
    const welcomed = pinToast(login, 'Login successful');
    await login.getByRole('button', { name: 'Sign In' }).click();
    await login.waitForURL('**/admin/leads');
    await welcomed;
    await fresh.close();

    // Issue 37: recovery codes say what happened — one typed where the 6-digit code goes, one used twice.
    const signInWithRecovery = async (expectSignedIn: boolean) => {
      const ctx = await browser.newContext({ baseURL: server.url });
      const p = await ctx.newPage();
      await p.goto('/admin/login');
      await p.getByLabel('Username').fill(ADMIN.username);
      await p.getByLabel('Password', { exact: true }).fill(ADMIN.password);
      await p.getByRole('button', { name: 'Sign In' }).click();
      await p.getByLabel('Authentication code').fill(recoveryCodes[0] ?? '');
      await p.getByRole('button', { name: 'Sign In' }).click();
      await p
        .getByText('That is not a 6-digit code. For a recovery code, choose "Use a recovery code instead".')
        .waitFor();
      await p.getByRole('button', { name: 'Use a recovery code instead' }).click();
      await p.getByLabel('Recovery code').fill(recoveryCodes[0] ?? '');
      await p.getByRole('button', { name: 'Sign In' }).click();
      if (expectSignedIn) await p.waitForURL('**/admin/leads');
      else
        await p
          .getByText('This recovery code has already been used. Each code works once: enter another one.')
          .waitFor();
      await ctx.close();
    };
    await signInWithRecovery(true);
    await signInWithRecovery(false);
  }, 120_000);
});
