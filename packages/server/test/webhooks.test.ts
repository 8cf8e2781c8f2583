import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/partners/partner-key.service';
import { failedDeliveriesSection } from '../src/webhooks/webhook.service';
import { visitorLeadBody } from './support/fixtures';
import { partnerLeadBody, postPartnerLead } from './support/partner';
import type { TestApp } from './support/test-app';
import type { Received, Receiver } from './support/webhook-receiver';
import { startWebhookTestbed, type WebhookTestbed } from './support/webhooks';

// Webhooks (issue 24, ADR 062) against a real receiver on 127.0.0.1: every signature is checked with the
// reference implementation (the `standardwebhooks` package), not with the product's own code.

let bed: WebhookTestbed;
let t: TestApp;
let rx: Receiver;

beforeAll(async () => {
  // Retries after 0.2 s (three of them) instead of 5 s … 10 h.
  bed = await startWebhookTestbed({ WEBHOOKS_RETRY_SCHEDULE: '0.2,0.2,0.2' });
  ({ t, rx } = bed);
});
afterAll(async () => {
  await bed?.close();
});

const api: WebhookTestbed['api'] = (...args) => bed.api(...args);
const submit = (body: Record<string, unknown>) => bed.submit(body);
const createEndpoint = (body?: Record<string, unknown>) => bed.createEndpoint(body);

/** The message as the reference implementation reads it (throws when the signature does not verify). */
function verified(secret: string, r: Received) {
  return new Webhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  }) as { type: string; timestamp: string; data: Record<string, unknown> };
}

const messagesOf = (path: string, type?: string) =>
  rx.at(path).filter((r) => !type || (JSON.parse(r.body) as { type: string }).type === type);
const leadIdOf = (r: Received) => (JSON.parse(r.body) as { data: { id: string } }).data.id;

describe('webhook endpoints API', () => {
  it('creates an endpoint and shows its secret once', async () => {
    const { id, secret } = await createEndpoint({ description: 'CRM', filters: { states: ['NY'] } });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    const list = (await api('GET', '/api/admin/webhooks')).json() as Record<string, unknown>[];
    const mine = list.find((e) => e.id === id);
    expect(mine).toMatchObject({ description: 'CRM', events: ['lead.created'], filters: { states: ['NY'] } });
    expect(JSON.stringify(list)).not.toContain(secret);
    expect(JSON.stringify(list)).not.toContain('whsec_');
  });

  it.each([
    [{ url: 'ftp://example.com/x', events: ['lead.created'] }, 'url'],
    [{ url: 'https://user:pw@example.com/x', events: ['lead.created'] }, 'url'],
    [{ url: 'https://example.com/x', events: ['lead.exploded'] }, 'events'],
    [{ url: 'https://example.com/x', events: ['lead.created'], filters: { states: ['ZZ'] } }, 'filters'],
    [{ url: 'https://example.com/x', events: [] }, 'events'],
  ])('answers 400 naming the field for %j', async (body, field) => {
    const res = await api('POST', '/api/admin/webhooks', body);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain(field);
  });

  it('needs an admin session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/webhooks' });
    expect(res.statusCode).toBe(401);
  });

  it('updates, disables and deletes an endpoint', async () => {
    const { id } = await createEndpoint();
    const patched = await api('PATCH', `/api/admin/webhooks/${id}`, {
      events: ['lead.created', 'lead.deleted'],
      enabled: false,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ enabled: false, events: ['lead.created', 'lead.deleted'] });
    expect((await api('DELETE', `/api/admin/webhooks/${id}`)).statusCode).toBe(200);
    expect((await api('DELETE', `/api/admin/webhooks/${id}`)).statusCode).toBe(404);
  });
});

describe('delivery', () => {
  it('posts lead.created signed as Standard Webhooks says, and logs the attempt', async () => {
    const ep = await createEndpoint();
    const lead = visitorLeadBody({ zipCode: '10001', pageUrl: 'https://example.com/?gclid=Cj0KCQ-test' });
    const res = await submit({
      ...lead,
      attribution: { utm_source: 'google', utm_campaign: 'fall', gclid: 'Cj0KCQ-test' },
    });
    expect(res.statusCode).toBe(200);
    const leadId = (res.json() as { id: string }).id;
    const [r] = await rx.waitFor(() => {
      const got = rx.at(ep.path).filter((m) => leadIdOf(m) === leadId);
      return got.length ? got : undefined;
    });
    const msg = verified(ep.secret, r as Received);
    expect(msg.type).toBe('lead.created');
    expect(msg.data).toMatchObject({
      id: leadId,
      email: lead.email,
      firstName: lead.firstName,
      zipCode: '10001',
      state: 'NY',
      consent: { given: true },
      attribution: {
        utmSource: 'google',
        utmCampaign: 'fall',
        gclid: 'Cj0KCQ-test',
        fbclid: null,
        landingUrl: 'https://example.com/?gclid=Cj0KCQ-test',
      },
    });
    expect((msg.data.consent as { text: string }).text).toBeTruthy();
    expect(String(r?.headers['content-type'])).toContain('application/json');

    const deliveries = await waitForDeliveries(ep.id, 'delivered', 1);
    expect(deliveries[0]).toMatchObject({ event: 'lead.created', leadId, state: 'delivered', attempts: 1 });
    expect(deliveries[0]?.attemptLog[0]).toMatchObject({
      statusCode: 200,
      outcome: 'delivered',
      responseExcerpt: 'ok',
    });
    expect(deliveries[0]?.id).toBe(r?.headers['webhook-id']);

    const byLead = (await api('GET', `/api/admin/leads/${leadId}/deliveries`)).json() as {
      endpointId: string;
    }[];
    expect(byLead.map((d) => d.endpointId)).toContain(ep.id);
  });

  it('applies the filters (state, lead type)', async () => {
    const ny = await createEndpoint({ filters: { states: ['NY'] } });
    const apiOnly = await createEndpoint({
      events: ['lead.created', 'api_lead.created'],
      filters: { leadTypes: ['api'] },
    });
    const all = await createEndpoint();
    const ca = (await submit(visitorLeadBody({ zipCode: '90210' }))).json() as { id: string };
    const nyLead = (await submit(visitorLeadBody({ zipCode: '10001' }))).json() as { id: string };
    const key = (await createApiKey(t.app.db.orm.em.fork(), 'Hooks Partner')).secret;
    // With its consent evidence (a TrustedForm certificate): without one an API lead is never sent (issue 33).
    const partner = await postPartnerLead(
      t.app,
      key,
      partnerLeadBody({
        trustedFormUrl: 'https://cert.trustedform.com/0123456789abcdef0123456789abcdef01234567',
      }),
    );
    expect(partner.statusCode, partner.body).toBe(201);
    const partnerId = (partner.json() as { id: string }).id;

    await rx.waitFor(() => rx.at(all.path).some((m) => leadIdOf(m) === nyLead.id));
    await rx.waitFor(() => rx.at(ny.path).some((m) => leadIdOf(m) === nyLead.id));
    await rx.waitFor(() => rx.at(apiOnly.path).some((m) => leadIdOf(m) === partnerId));
    // Everything queued with those leads has been attempted: nothing pending for these endpoints.
    for (const ep of [ny, apiOnly, all]) await waitForDeliveries(ep.id, 'pending', 0);
    expect(rx.at(ny.path).map(leadIdOf)).not.toContain(ca.id);
    expect(rx.at(apiOnly.path).map(leadIdOf)).toEqual([partnerId]);
    expect(messagesOf(apiOnly.path, 'api_lead.created')).toHaveLength(1);
    expect(rx.at(all.path).map(leadIdOf)).not.toContain(partnerId);
    for (const ep of [ny, apiOnly, all]) await api('DELETE', `/api/admin/webhooks/${ep.id}`);
  });

  it('retries a failing receiver with the same webhook-id until it answers 2xx', async () => {
    const ep = await createEndpoint();
    let calls = 0;
    rx.on(ep.path, (_r, res) => {
      calls += 1;
      res.statusCode = calls <= 2 ? 500 : 204;
      res.end(calls <= 2 ? 'not now' : '');
    });
    await submit(visitorLeadBody());
    await rx.waitFor(() => rx.at(ep.path).length >= 3);
    const ids = new Set(rx.at(ep.path).map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(1);
    for (const r of rx.at(ep.path)) verified(ep.secret, r);
    const [d] = await waitForDeliveries(ep.id, 'delivered', 1);
    expect(d?.attempts).toBe(3);
    expect(d?.attemptLog.map((a) => [a.statusCode, a.outcome])).toEqual([
      [500, 'retrying'],
      [500, 'retrying'],
      [204, 'delivered'],
    ]);
    expect(d?.attemptLog[0]?.responseExcerpt).toBe('not now');
    await api('DELETE', `/api/admin/webhooks/${ep.id}`);
  });

  it('marks a delivery failed after the last retry, and resends it (same webhook-id) on request', async () => {
    const ep = await createEndpoint();
    let failing = true;
    rx.on(ep.path, (_r, res) => {
      res.statusCode = failing ? 503 : 200;
      res.end();
    });
    await submit(visitorLeadBody());
    const [failed] = await waitForDeliveries(ep.id, 'failed', 1);
    expect(failed?.attempts).toBe(4); // the first attempt and three retries
    failing = false;
    const resend = await api('POST', `/api/admin/webhooks/${ep.id}/deliveries/${failed?.id}/resend`);
    expect(resend.statusCode, resend.body).toBe(202);
    const [delivered] = await waitForDeliveries(ep.id, 'delivered', 1);
    expect(delivered?.id).toBe(failed?.id);
    expect(new Set(rx.at(ep.path).map((r) => r.headers['webhook-id']))).toEqual(new Set([failed?.id]));

    // "Resend all failed since": fail two more, then resend both at once.
    failing = true;
    const since = new Date().toISOString();
    await submit(visitorLeadBody());
    await submit(visitorLeadBody());
    await waitForDeliveries(ep.id, 'failed', 2);
    // The e-mail summaries count them (ADR 063's section list).
    const section = await failedDeliveriesSection(t.app.db.pool, {
      from: new Date(since),
      to: new Date(Date.now() + 60_000),
    });
    expect(section.rows.find((r) => r.label === 'Failed')?.value).toBe('2');
    failing = false;
    const all = await api('POST', `/api/admin/webhooks/${ep.id}/deliveries/resend-failed`, { since });
    expect(all.json()).toEqual({ requeued: 2 });
    await waitForDeliveries(ep.id, 'delivered', 3);
    expect(
      (await api('POST', `/api/admin/webhooks/${ep.id}/deliveries/resend-failed`, { since: 'yesterday' }))
        .statusCode,
    ).toBe(400);
    await api('DELETE', `/api/admin/webhooks/${ep.id}`);
  });

  it('disables an endpoint that answers 410 Gone', async () => {
    const ep = await createEndpoint();
    rx.on(ep.path, (_r, res) => {
      res.statusCode = 410;
      res.end('gone');
    });
    await submit(visitorLeadBody());
    const [d] = await waitForDeliveries(ep.id, 'failed', 1);
    expect(d?.attempts).toBe(1);
    const list = (await api('GET', '/api/admin/webhooks')).json() as {
      id: string;
      enabled: boolean;
      disabledReason: string;
    }[];
    expect(list.find((e) => e.id === ep.id)).toMatchObject({
      enabled: false,
      disabledReason: expect.stringContaining('410'),
    });
    const audit = await t.app.db.pool.query(
      `select detail from audit_log where action = 'webhooks.disabled'`,
    );
    expect(audit.rows.map((r) => r.detail.id)).toContain(ep.id);
    // A disabled endpoint is sent nothing more.
    const before = rx.at(ep.path).length;
    const other = await createEndpoint();
    await submit(visitorLeadBody());
    await rx.waitFor(() => rx.at(other.path).length === 1);
    expect(rx.at(ep.path).length).toBe(before);
    await api('DELETE', `/api/admin/webhooks/${other.id}`);
  });

  it('sends opt-outs and deletions to every endpoint that received the lead, whatever its events', async () => {
    const got = await createEndpoint(); // lead.created only
    const notYet = await createEndpoint({ enabled: true });
    await api('PATCH', `/api/admin/webhooks/${notYet.id}`, { enabled: false });
    const lead = visitorLeadBody();
    const { id } = (await submit(lead)).json() as { id: string };
    await rx.waitFor(() => rx.at(got.path).some((m) => leadIdOf(m) === id));
    await api('PATCH', `/api/admin/webhooks/${notYet.id}`, { enabled: true });

    expect(
      (await t.app.inject({ method: 'POST', url: '/api/unsubscribe', payload: { email: lead.email } }))
        .statusCode,
    ).toBe(200);
    const [optOut] = await rx.waitFor(() => {
      const m = messagesOf(got.path, 'lead.opted_out');
      return m.length ? m : undefined;
    });
    expect(verified(got.secret, optOut as Received).data).toEqual({ id, leadType: 'website' });

    expect((await api('DELETE', `/api/admin/leads/${id}`)).statusCode).toBe(200);
    await rx.waitFor(() => messagesOf(got.path, 'lead.deleted').length === 1);
    await waitForDeliveries(got.id, 'pending', 0);
    // The endpoint that never received the lead (disabled then) hears nothing of it.
    expect(rx.at(notYet.path)).toHaveLength(0);
    await api('DELETE', `/api/admin/webhooks/${got.id}`);
    await api('DELETE', `/api/admin/webhooks/${notYet.id}`);
  });

  it('sends a data-subject deletion as lead.opted_out and lead.deleted to the endpoints that got the lead', async () => {
    const got = await createEndpoint();
    const lead = visitorLeadBody();
    const { id } = (await submit(lead)).json() as { id: string };
    await rx.waitFor(() => rx.at(got.path).some((m) => leadIdOf(m) === id));
    const erased = await api('DELETE', '/api/admin/data-requests', { email: lead.email });
    expect(erased.statusCode, erased.body).toBe(200);
    await rx.waitFor(
      () =>
        messagesOf(got.path, 'lead.opted_out').length === 1 &&
        messagesOf(got.path, 'lead.deleted').length === 1,
    );
    for (const m of [...messagesOf(got.path, 'lead.opted_out'), ...messagesOf(got.path, 'lead.deleted')]) {
      expect(verified(got.secret, m).data).toEqual({ id, leadType: 'website' });
    }
    await api('DELETE', `/api/admin/webhooks/${got.id}`);
  });

  it('sends lead.beneficiary_updated and api_lead.created to subscribers', async () => {
    const ep = await createEndpoint({ events: ['lead.beneficiary_updated'] });
    const res = await submit(visitorLeadBody());
    const { id } = res.json() as { id: string };
    const owner = res.cookies.find((c) => c.name.includes('owner'));
    expect(owner).toBeDefined();
    const set = await t.app.inject({
      method: 'PATCH',
      url: `/api/leads/${id}/beneficiary`,
      payload: { beneficiary: 'Estate' },
      cookies: { [owner?.name as string]: owner?.value as string },
    });
    expect(set.statusCode, set.body).toBe(200);
    const [m] = await rx.waitFor(() => {
      const got = messagesOf(ep.path, 'lead.beneficiary_updated');
      return got.length ? got : undefined;
    });
    expect(verified(ep.secret, m as Received).data).toMatchObject({ id, beneficiary: 'Estate' });
    await api('DELETE', `/api/admin/webhooks/${ep.id}`);
  });

  it('signs with both secrets for a day after a rotation', async () => {
    const ep = await createEndpoint();
    const rotated = await api('POST', `/api/admin/webhooks/${ep.id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    const { secret: newSecret, previousSecretUntil } = rotated.json() as {
      secret: string;
      previousSecretUntil: string;
    };
    expect(newSecret).not.toBe(ep.secret);
    expect(new Date(previousSecretUntil).getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);
    const test = await api('POST', `/api/admin/webhooks/${ep.id}/test`);
    expect(test.statusCode).toBe(202);
    const [m] = await rx.waitFor(() => {
      const got = messagesOf(ep.path, 'webhook.test');
      return got.length ? got : undefined;
    });
    expect(String(m?.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verified(newSecret, m as Received).type).toBe('webhook.test');
    expect(verified(ep.secret, m as Received).type).toBe('webhook.test');
    await api('DELETE', `/api/admin/webhooks/${ep.id}`);
  });

  it('a receiver that hangs or answers 10 MB does not stall another endpoint', async () => {
    const hanging = await createEndpoint();
    const huge = await createEndpoint();
    const fast = await createEndpoint();
    rx.on(hanging.path, () => {
      // never answers
    });
    rx.on(huge.path, (_r, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write(Buffer.from([0, 0xff, 0xfe, 0]));
      const mb = Buffer.alloc(1024 * 1024, 'x');
      let sent = 0;
      const more = () => {
        while (sent < 10 && res.write(mb)) sent += 1;
        if (sent < 10) res.once('drain', more);
        else res.end();
      };
      more();
    });
    const redirecting = await createEndpoint();
    rx.on(redirecting.path, (_r, res) => {
      res.writeHead(307, { location: `${rx.base}/redirected-to` });
      res.end();
    });
    const started = Date.now();
    for (let i = 0; i < 5; i++) await submit(visitorLeadBody());
    await rx.waitFor(() => rx.at(fast.path).length >= 5);
    expect(Date.now() - started).toBeLessThan(5_000);
    const [d] = await waitForDeliveries(huge.id, 'delivered', 5);
    // The first 1 KB is kept, as text PostgreSQL can store (binary bytes replaced, NUL dropped).
    expect(d?.attemptLog[0]?.responseExcerpt?.length).toBeGreaterThan(1000);
    expect(d?.attemptLog[0]?.responseExcerpt).not.toContain('\u0000');
    // A redirect is an answer that is not 2xx: retried, never followed.
    await rx.waitFor(() => rx.at(redirecting.path).length >= 5);
    const redirected = (
      await api('GET', `/api/admin/webhooks/${redirecting.id}/deliveries`)
    ).json() as DeliveryView[];
    expect(redirected.flatMap((x) => x.attemptLog.map((a) => a.statusCode))).toContain(307);
    expect(rx.at('/redirected-to')).toHaveLength(0);
    for (const ep of [hanging, huge, fast, redirecting]) await api('DELETE', `/api/admin/webhooks/${ep.id}`);
  });
});

type DeliveryView = {
  id: string;
  event: string;
  attempts: number;
  attemptLog: { statusCode: number | null; outcome: string; responseExcerpt: string | null }[];
};

/** The endpoint's deliveries in `state` once there are exactly `count` of them. */
async function waitForDeliveries(id: string, state: string, count: number, ms = 15_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    // Messages still in the outbox have no deliveries yet: "none pending" means nothing there either.
    const { rows } = await t.app.db.pool.query<{ n: number }>('select count(*)::int as n from webhook_event');
    if ((rows[0]?.n ?? 0) > 0) {
      if (Date.now() > deadline) throw new Error('the webhook outbox was not fanned out');
      await rx.waitFor(() => false, 50).catch(() => undefined);
      continue;
    }
    const res = await api('GET', `/api/admin/webhooks/${id}/deliveries?state=${state}`);
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json() as DeliveryView[];
    if (list.length === count) return list;
    if (Date.now() > deadline) throw new Error(`expected ${count} ${state} deliveries, have ${list.length}`);
    await rx.waitFor(() => false, 50).catch(() => undefined);
  }
}
