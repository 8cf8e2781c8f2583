import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseHeaderAction, signInThroughForm } from './support/admin';
import { launchBrowser, pinToast } from './support/browser';
import { type BuiltServer, startBuiltServer } from './support/built-server';
import { createScratchDatabase, type ScratchDatabase } from './support/database';

// Issue 24 part 6 through the screens: on the Account page an admin gives an address, opts in to the
// daily summary, saves, and sends a test e-mail, which a local SMTP sink (127.0.0.1) receives.

const ADMIN = { username: 'e2e-mail', password: 'e2e-mail-password-123' };
let browser: Browser;
let server: BuiltServer;
let database: ScratchDatabase | null = null;
let sink: SMTPServer;
const received: { to: string[]; raw: string }[] = [];

beforeAll(async () => {
  sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', () => resolve()));
  const port = (sink.server.address() as AddressInfo).port;
  database = await createScratchDatabase('uf_e2e_mail');
  [server, browser] = await Promise.all([
    startBuiltServer({
      DATABASE_URL: database?.url ?? '',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_FROM: 'reports@example.com',
    }),
    launchBrowser(),
  ]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await database?.drop();
  await new Promise<void>((resolve) => (sink ? sink.close(() => resolve()) : resolve()));
});

describe('e-mail reports on the Account page', () => {
  it('opts in to the daily and monthly summaries and sends a test e-mail', async () => {
    const context = await browser.newContext({ baseURL: server.url });
    const page = await context.newPage();
    await page.goto('/admin/login');
    await signInThroughForm(page, ADMIN);
    await chooseHeaderAction(page, 'Account');
    await page.waitForURL('**/admin/account');

    const section = page.getByRole('form', { name: 'E-mail reports and alerts' });
    await section.getByLabel('E-mail address').fill('not-an-address');
    await section.getByRole('checkbox', { name: /Daily summary/ }).check();
    await section.getByRole('checkbox', { name: /Monthly summary \(on the 1st at 09:00/ }).check();
    await section.getByRole('button', { name: 'Save e-mail settings' }).click();
    await section.getByText(/Enter a valid e-mail address/).waitFor();

    await section.getByLabel('E-mail address').fill('e2e-admin@example.com');
    const saved = pinToast(page, 'E-mail settings saved');
    await section.getByRole('button', { name: 'Save e-mail settings' }).click();
    await saved;

    const sent = pinToast(page, 'Test e-mail sent');
    await section.getByRole('button', { name: 'Send test e-mail' }).click();
    expect(await (await sent).textContent()).toContain('e2e-admin@example.com');
    expect(received.map((m) => m.to)).toEqual([['e2e-admin@example.com']]);
    expect(received[0]?.raw).toMatch(/^Subject: Test e-mail from the lead admin$/m);

    // Saved on the server: a reload shows the opt-in.
    await page.reload();
    await expect
      .poll(() => section.getByRole('checkbox', { name: /Daily summary/ }).isChecked(), { timeout: 30_000 })
      .toBe(true);
    expect(await section.getByRole('checkbox', { name: /Monthly summary/ }).isChecked()).toBe(true);
    expect(await section.getByRole('checkbox', { name: /Weekly summary/ }).isChecked()).toBe(false);
    expect(await section.getByLabel('E-mail address').inputValue()).toBe('e2e-admin@example.com');
    await context.close();
  });
});
