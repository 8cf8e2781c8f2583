import { mkdirSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseHeaderAction, signInThroughForm } from './support/admin';
import { expectNoAxeViolations } from './support/axe';
import { launchBrowser, openPage, pinToast } from './support/browser';
import { submitAsVisitor, visitorLead } from './support/visitor';

// Lead buyers on screen (issue 34): a buyer created through the Buyers screen posts to a receiver on
// 127.0.0.1 (the e2e server runs with WEBHOOKS_ALLOW_PRIVATE_URLS) that answers like a PX-style API, a test
// lead comes back Accepted, visitors' leads are sold at the payout the answer names and shown so on their
// pages, one is returned, and the dashboard's Revenue card counts the other. Screenshots (1440×900) go to
// test-results/admin-buyers/ (git-ignored) to be looked at.

const VIEWPORT = { width: 1440, height: 900 };
const SCREENSHOTS = path.resolve(import.meta.dirname, '../test-results/admin-buyers');
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

type Received = { path: string; headers: IncomingHttpHeaders; body: string };
const received: Received[] = [];
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => {
    body += c;
  });
  req.on('end', () => {
    received.push({ path: req.url ?? '', headers: req.headers, body });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"Success":true,"Payout":8.5}');
  });
});

const stamp = Date.now().toString(36);
const BUYER = `E2E Buyer ${stamp}`;
const SECRET = `e2e-secret-${stamp}`;

let browser: Browser;
let context: BrowserContext;
let page: Page;
/** Shared by the tests below, in order: the buyer made on screen and the leads it bought. */
let buyerId = '';
const leads: { id: string; name: string }[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  ({ context, page } = await openPage(browser, '/admin/login', { viewport: VIEWPORT }));
  await signInThroughForm(page);
});
afterAll(async () => {
  // Later tests' leads must not be offered to this file's buyers (their receiver is gone).
  if (page) {
    const list = (await (await page.request.get('/api/admin/buyers')).json()) as {
      id: string;
      status: string;
    }[];
    for (const b of list) {
      if (b.status === 'active')
        await page.request.patch(`/api/admin/buyers/${b.id}`, { data: { status: 'paused' } });
    }
  }
  await context?.close();
  await browser?.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

async function screenshot(name: string, fullPage = true) {
  await page.screenshot({
    path: path.join(SCREENSHOTS, `${name}-1440x900.png`),
    fullPage,
    animations: 'disabled',
  });
}

const receiverUrl = (p: string) => `http://127.0.0.1:${(receiver.address() as AddressInfo).port}${p}`;

describe('lead buyers on screen', () => {
  it('the Buyers screen says what to do while empty; the editor shows the server’s field errors', async () => {
    const existing = (await (await page.request.get('/api/admin/buyers')).json()) as unknown[];
    await chooseHeaderAction(page, 'Buyers');
    await page.waitForURL('**/admin/buyers');
    await page.getByRole('heading', { level: 1, name: 'Buyers' }).waitFor();
    if (existing.length === 0) {
      await page.getByText('No buyers yet: add one from its posting spec.').waitFor();
      await expectNoAxeViolations(page);
      await screenshot('buyers-empty', false);
    }

    await page.getByRole('link', { name: 'Add buyer' }).first().click();
    await page.waitForURL('**/admin/buyers/new');
    await page.getByRole('heading', { level: 1, name: 'New buyer' }).waitFor();
    // Nothing filled in: the server refuses and names each field, beside it and above the form.
    await page.getByRole('button', { name: 'Create buyer' }).click();
    const summary = page.getByRole('alert').filter({ hasText: 'Not saved' });
    await summary.getByText('name is required').waitFor();
    await summary.getByText('delivery.url is required').waitFor();
    expect(await page.getByRole('textbox', { name: 'Name', exact: true }).getAttribute('aria-invalid')).toBe(
      'true',
    );
    expect(await page.getByRole('textbox', { name: 'URL', exact: true }).getAttribute('aria-invalid')).toBe(
      'true',
    );
    await expectNoAxeViolations(page);
    // A pattern RE2 cannot run (ADR 072) is refused on its own row, saying why.
    const bodyMatches = page.getByRole('textbox', { name: 'Body matches (RE2 regex)' }).first();
    await bodyMatches.fill('(\\w+)-\\1');
    await page.getByRole('button', { name: 'Create buyer' }).click();
    await summary.getByText(/responseRules: when\.regex uses a backreference/).waitFor();
    expect(await bodyMatches.getAttribute('aria-invalid')).toBe('true');
    // The next test fills this same form in: the refused pattern goes, as an admin would correct it.
    await bodyMatches.fill('');
  });

  it('creates a buyer through the screen, keeps its secret masked, and a test lead comes back Accepted', async () => {
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(BUYER);
    await page.getByRole('textbox', { name: 'Priority', exact: true }).fill('1');
    await page.getByRole('textbox', { name: 'Price (USD)', exact: true }).fill('5');
    await page.getByRole('textbox', { name: 'URL', exact: true }).fill(receiverUrl('/px'));
    await page.getByRole('button', { name: 'Add header' }).click();
    await page.getByLabel('Header 1 name').fill('api-key');
    await page.getByLabel('Header 1 value').fill(SECRET);
    await page.getByLabel('Header 1 is secret').check();

    // The field map: two lead fields (one with a transform) and a constant.
    await page.getByLabel('Field 1 name').fill('ContactData.FirstName');
    await page.getByLabel('Field 1 lead field').selectOption('firstName');
    await page.getByRole('button', { name: 'Add field' }).click();
    await page.getByLabel('Field 2 name').fill('ContactData.Phone');
    await page.getByLabel('Field 2 lead field').selectOption('phone');
    await page.getByLabel('Field 2 transforms').fill('digits');
    await page.getByRole('button', { name: 'Add field' }).click();
    await page.getByLabel('Field 3 source').selectOption('value');
    await page.getByLabel('Field 3 name').fill('ApiToken');
    await page.getByLabel('Field 3 constant').fill('tok-e2e');

    // The answer: Success true is a sale at the Payout; false a rejection with the Message.
    const rule1 = page.getByRole('group', { name: 'Response rule 1' });
    await rule1.getByLabel('JSON path').fill('Success');
    await rule1.getByLabel('Equals').fill('true');
    await rule1.getByLabel('Outcome').selectOption('accepted');
    await rule1.getByLabel('Price from (path)').fill('Payout');
    await page.getByRole('button', { name: 'Add rule' }).click();
    const rule2 = page.getByRole('group', { name: 'Response rule 2' });
    await rule2.getByLabel('JSON path').fill('Success');
    await rule2.getByLabel('Equals').fill('false');
    await rule2.getByLabel('Outcome').selectOption('rejected');
    await rule2.getByLabel('Reason from (path)').fill('Message');

    // Hours: a window that ends before it starts runs into the next day (looked at, then switched off).
    await page.getByLabel('Only at set hours').check();
    const window1 = page.getByRole('group', { name: 'Window 1' });
    await window1.getByLabel('Start (HH:MM)').fill('22:00');
    await window1.getByLabel('End (HH:MM)').fill('02:00');
    await window1.getByText('Ends the next day').waitFor();
    await page.getByLabel('States').getByLabel('CA', { exact: true }).check();
    await page.getByText('1 checked: CA.').waitFor();
    await page
      .getByRole('region', { name: 'Filters' })
      .screenshot({ path: path.join(SCREENSHOTS, 'buyers-filters.png') });
    await page
      .getByRole('region', { name: 'Hours' })
      .screenshot({ path: path.join(SCREENSHOTS, 'buyers-hours.png') });
    await page.getByRole('button', { name: 'Clear the states' }).click();
    await page.getByLabel('Only at set hours').uncheck();

    await page.getByRole('button', { name: 'Add cap' }).click();
    await page.getByLabel('Cap 1 period').selectOption('day');
    await page.getByLabel('Cap 1 leads').fill('10');

    const created = pinToast(page, 'Buyer created');
    await page.getByRole('button', { name: 'Create buyer' }).click();
    await created;
    await page.waitForURL(/\/admin\/buyers\/[0-9a-f-]{36}$/);
    buyerId = new URL(page.url()).pathname.split('/').pop() ?? '';
    await page.getByRole('heading', { level: 1, name: `Buyer ${BUYER}` }).waitFor();
    // The secret is never shown again.
    expect(await page.getByLabel('Header 1 value').inputValue()).toBe('••••');
    expect(await page.content()).not.toContain(SECRET);
    await expectNoAxeViolations(page);

    // Send test lead: posted (with the real secret) and read by the rules.
    await page.getByRole('button', { name: 'Send test lead' }).click();
    const result = page.getByRole('status', { name: 'Test result' });
    await result.getByText('Accepted', { exact: true }).waitFor();
    await result.getByText('Price $8.50').waitFor();
    await result.getByText('HTTP 200').waitFor();
    const test = page.getByRole('region', { name: 'Send a test lead' });
    await test.getByText('"Success":true').waitFor();
    await test.getByText('api-key: ••••').waitFor();
    const posted = received.at(-1);
    expect(posted?.headers['api-key']).toBe(SECRET);
    expect(JSON.parse(posted?.body ?? '{}')).toMatchObject({
      ApiToken: 'tok-e2e',
      ContactData: { FirstName: expect.any(String), Phone: expect.stringMatching(/^\d+$/) },
    });
    await expectNoAxeViolations(page);
    await screenshot('buyers-editor');
  });

  it('sells visitors’ leads, shows the sale on the lead page, returns one, and the Revenue card counts the other', async () => {
    expect(buyerId).toMatch(UUID);
    // One after the other: each visitor comes from an address of its own (support/visitor.ts).
    for (const firstName of ['Marisol', 'Dario']) {
      const person = visitorLead({ firstName });
      const answer = await submitAsVisitor(page.request, person);
      expect(answer.status()).toBe(200);
      const { id } = (await answer.json()) as { id: string };
      leads.push({ id, name: `${person.firstName} ${person.lastName}` });
    }
    // Sold once the waterfall has run (waited on, through the API).
    for (const lead of leads) {
      await expect
        .poll(
          async () =>
            (
              (await (await page.request.get(`/api/admin/leads/${lead.id}/sale`)).json()) as {
                status: string;
              }
            ).status,
        )
        .toBe('sold');
    }

    const [first, second] = leads as [(typeof leads)[number], (typeof leads)[number]];
    await page.goto(`/admin/leads/${first.id}`);
    const sale = page.getByRole('region', { name: 'Sale' });
    await sale.getByText(`Sold to ${BUYER} for $8.50`).waitFor();
    const offers = sale.getByRole('table', { name: 'Offers to buyers' });
    const offer = offers.getByRole('row').filter({ hasText: BUYER });
    await offer.getByText('Accepted', { exact: true }).waitFor();
    await offer.getByRole('button', { name: 'Show' }).click();
    await sale.getByText('Request as sent').waitFor();
    await sale.getByText(`POST ${receiverUrl('/px')}`).waitFor();
    await expectNoAxeViolations(page);
    await screenshot('buyers-lead-sale');

    // Return lead: the reason is required; then the sale is credited and the page says so.
    await sale.getByRole('button', { name: 'Return lead' }).click();
    const dialog = page.getByRole('dialog', { name: `Return lead ${first.name}?` });
    await dialog.getByRole('button', { name: 'Return lead' }).click();
    await dialog.getByText(/Give the reason for the return/).waitFor();
    await dialog.getByLabel('Reason').fill('Disconnected number');
    await dialog.getByLabel('Note (optional)').fill('Buyer ticket 4411');
    await expectNoAxeViolations(page);
    await screenshot('buyers-return-dialog', false);
    const returned = pinToast(page, 'Lead returned');
    await dialog.getByRole('button', { name: 'Return lead' }).click();
    await returned;
    await dialog.waitFor({ state: 'detached' });
    await sale.getByText(/^Returned on .+ ET: Disconnected number \(Buyer ticket 4411\)\./).waitFor();
    expect(await sale.getByRole('button', { name: 'Return lead' }).count()).toBe(0);
    // Returned once only: the server refuses a second time.
    const again = await page.request.post(`/api/admin/leads/${first.id}/return`, {
      data: { reason: 'again' },
    });
    expect(again.status()).toBe(409);

    // Preview on the buyer's page: the exact request for the other lead, the secret masked, nothing sent.
    const before = received.length;
    await page.goto(`/admin/buyers/${buyerId}`);
    const preview = page.getByRole('region', { name: 'Preview a lead' });
    await preview.getByLabel('Lead id').fill(`${new URL(page.url()).origin}/admin/leads/${second.id}`);
    await preview.getByRole('button', { name: 'Preview request' }).click();
    await preview.getByText(`POST ${receiverUrl('/px')}`).waitFor();
    await preview.getByText('api-key: ••••').waitFor();
    expect(received.length).toBe(before);

    // The dashboard's Revenue card: two sales at $8.50 today, one returned.
    await page.goto('/admin/leads');
    const card = page.getByRole('group', { name: 'Net Revenue Today' });
    await card.getByText('$8.50', { exact: true }).waitFor();
    await card.getByText('Last 7 days, net: $8.50').waitFor();
    await card.getByText('Last 30 days, net: $8.50').waitFor();
    await screenshot('buyers-revenue-card', false);
  });

  it('the Buyers screen: today’s figures and caps, the log, pause and resume, delete refused after sales', async () => {
    await page.goto('/admin/buyers');
    const table = page.getByRole('table', { name: 'Buyers in waterfall order' });
    const row = table.getByRole('row').filter({ hasText: BUYER });
    await row.getByText('Active', { exact: true }).waitFor();
    await row.getByText('2 / 10 today').waitFor();
    // Issue 47: gross and net, each labelled; the returned sale counts in Sold and in Returned.
    await row.getByText('$17.00 gross').waitFor();
    await row.getByText('$8.50 net').waitFor();
    await row.getByText('1 returned').waitFor();
    await expectNoAxeViolations(page);
    await screenshot('buyers-list');

    // Its log: the test post and both leads, each opening to its request and answer.
    await row.getByRole('button', { name: `Log of ${BUYER}` }).click();
    const log = page.getByRole('dialog', { name: `Log of ${BUYER}` });
    const posts = log.getByRole('table', { name: `Posts to ${BUYER}` });
    await posts.getByRole('row').filter({ hasText: 'Test lead' }).waitFor();
    await expect.poll(() => posts.getByRole('row').filter({ hasText: 'Accepted' }).count()).toBe(3);
    await posts.getByRole('button', { name: 'Show' }).first().click();
    await log.getByText('Request as sent').waitFor();
    await log.getByText('{"Success":true,"Payout":8.5}').first().waitFor();
    await expectNoAxeViolations(page);
    await screenshot('buyers-log', false);
    await log.getByRole('button', { name: 'Close', exact: true }).click();
    await log.waitFor({ state: 'detached' });

    // Delete: refused with the server's words once the buyer has bought leads.
    await row.getByRole('button', { name: `Delete ${BUYER}` }).click();
    await page
      .getByRole('dialog', { name: 'Delete buyer' })
      .getByRole('button', { name: 'Delete buyer' })
      .click();
    await page.getByRole('alert').filter({ hasText: 'has bought leads' }).waitFor();

    // A buyer without sales is deleted.
    const spare = await page.request.post('/api/admin/buyers', {
      data: {
        name: `E2E Spare ${stamp}`,
        status: 'paused',
        priority: 50,
        price: 1,
        delivery: { kind: 'email', to: ['spare@buyer.example'] },
        fields: [{ to: 'Name', from: 'firstName' }],
        responseRules: [],
      },
    });
    expect(spare.status()).toBe(201);
    await page.reload();
    const spareRow = table.getByRole('row').filter({ hasText: `E2E Spare ${stamp}` });
    await spareRow.getByText('Paused', { exact: true }).waitFor();
    await spareRow.getByRole('button', { name: `Delete E2E Spare ${stamp}` }).click();
    const deleted = pinToast(page, 'Buyer deleted');
    await page
      .getByRole('dialog', { name: 'Delete buyer' })
      .getByRole('button', { name: 'Delete buyer' })
      .click();
    await deleted;
    await spareRow.waitFor({ state: 'detached' });

    // Pause and resume; left paused, so that later tests' leads are not offered to it.
    await row.getByRole('button', { name: `Pause ${BUYER}` }).click();
    await row.getByText('Paused by an admin').waitFor();
    await row.getByRole('button', { name: `Resume ${BUYER}` }).click();
    await row.getByText('Active', { exact: true }).waitFor();
    await row.getByRole('button', { name: `Pause ${BUYER}` }).click();
    await row.getByText('Paused by an admin').waitFor();
  });
});
