import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAdmin, signIn } from './support/admin';
import { insertWebsiteLead } from './support/leads';
import { startTestApp, type TestApp } from './support/test-app';

// An experiment's results (issue 48, ADR 075) from known data written into the tables: visitors from the
// exposures, leads, accepted, sold (returned included), returned, gross and net revenue from the sales,
// the sales still inside their return window, the comparison on net revenue per visitor, the SRM check,
// and a verdict only once every arm has 100 visitors, 25 conversions and 7 days.

let t: TestApp;
let cookies: Record<string, string>;
const admin = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, cookies, ...(payload ? { payload } : {}) });
let id = '';

/** `visitors` exposures of `arm` today, each its own visitor. */
async function expose(arm: string, visitors: number, from: number) {
  await t.app.db.pool.query(
    `insert into experiment_exposure (experiment_id, day, visitor_id, arm, first_at, last_at)
     select $1, current_date, g, $2, now(), now() from generate_series($3::bigint, $3::bigint + $4 - 1) g`,
    [id, arm, from, visitors],
  );
}

/** `leads` leads in `arm`: the first `sold` sold at $10.00, of which the first `returned` returned. */
async function leadsOf(arm: string, leads: number, sold: number, returned: number) {
  for (let i = 0; i < leads; i++) {
    const lead = await insertWebsiteLead(t.app.db.pool);
    await t.app.db.pool.query(
      `update website_lead set experiment_id = $2, experiment_arm = $3,
         quality_verdict = case when $4 then 'accept' else 'reject' end where id = $1`,
      [lead.id, id, arm, i % 5 !== 4],
    );
    if (i < sold) {
      await t.app.db.pool.query(
        `insert into lead_sale (lead_id, lead_kind, status, price_cents, sold_at, returned_at)
         values ($1, 'website', 'sold', 1000, now() - interval '2 days', $2)`,
        [lead.id, i < returned ? new Date() : null],
      );
    }
  }
}

beforeAll(async () => {
  t = await startTestApp();
  await seedAdmin(t.app);
  cookies = await signIn(t.app);
  const created = await admin('POST', '/api/admin/experiments', {
    name: 'Revenue',
    plannedVisitors: 2000,
    arms: [
      { key: 'control', name: 'Control', weight: 50, content: {} },
      { key: 'owed', name: 'Owed', weight: 50, content: { headline: 'Owed' } },
    ],
  });
  id = created.json().id;
  await admin('POST', `/api/admin/experiments/${id}/start`);
  await admin('POST', `/api/admin/experiments/${id}/stop`);
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/admin/experiments/{id}/results', () => {
  it('gives no verdict before 7 days, whatever the counts', async () => {
    await expose('control', 1000, 1);
    await expose('owed', 1000, 100_001);
    await leadsOf('control', 50, 40, 5);
    await leadsOf('owed', 60, 50, 0);
    const r = (await admin('GET', `/api/admin/experiments/${id}/results`)).json();
    expect(r).toMatchObject({ enoughData: false, verdict: null, daysRunning: 0 });
  });

  it('counts each arm and, after 7 days with enough data, compares net revenue per visitor', async () => {
    await t.app.db.pool.query(
      `update experiment set started_at = now() - interval '9 days', stopped_at = now() - interval '1 day'
       where id = $1`,
      [id],
    );
    const r = (await admin('GET', `/api/admin/experiments/${id}/results`)).json();
    expect(r.daysRunning).toBe(8);
    expect(r.arms).toEqual([
      expect.objectContaining({
        key: 'control',
        control: true,
        visitors: 1000,
        leads: 50,
        // Every fifth lead rejected: 40 of 50 accepted.
        accepted: 40,
        sold: 40,
        returned: 5,
        revenue: 400,
        net: 350,
        leadRate: 0.05,
        acceptedLeadRate: 0.04,
        revenuePerVisitor: 0.35,
        conversions: 35,
      }),
      expect.objectContaining({
        key: 'owed',
        visitors: 1000,
        leads: 60,
        accepted: 48,
        sold: 50,
        returned: 0,
        revenue: 500,
        net: 500,
        revenuePerVisitor: 0.5,
        conversions: 50,
      }),
    ]);
    // Per visitor in cents: control mean 35, variance 35·1000²/1000 − 35² = 33,775; owed mean 50,
    // variance 50,000 − 2,500 = 47,500; se = sqrt(33.775 + 47.5) = 9.0153 cents; Δ = 15 cents = $0.15.
    const [c] = r.comparisons;
    expect(c).toMatchObject({ arm: 'owed', metric: 'revenue_per_visitor', control: 0.35, treatment: 0.5 });
    expect(c.absolute).toBeCloseTo(0.15, 10);
    expect(c.relative).toBeCloseTo(0.5 / 0.35 - 1, 10);
    // Fixed: 0.15 ± 1.959964 × 0.090153 = [-0.02670, 0.32670].
    expect(c.fixed.absolute.low).toBeCloseTo(-0.0267, 4);
    expect(c.fixed.absolute.high).toBeCloseTo(0.3267, 4);
    expect(c.sequential.absolute.high - c.sequential.absolute.low).toBeGreaterThan(
      c.fixed.absolute.high - c.fixed.absolute.low,
    );
    expect(r.srm).toEqual({ pValue: 1, ok: true });
    expect(r.enoughData).toBe(true);
    expect(r.verdict).toContain('No difference shown yet between Owed and the control');
    // 35 + 50 sold two days ago and not returned, within the default 30-day window.
    expect(r.salesInReturnWindow).toBe(85);
    expect(r.multipleExposureRate).toBe(0);
  });

  it('warns of a sample-ratio mismatch and counts visitors seen in two arms', async () => {
    // 200 more control visitors (1,200 / 1,000 at 50/50: p ≈ 2e-5), 10 of them also seen in owed.
    await expose('control', 200, 200_001);
    await expose('owed', 10, 200_001);
    const r = (await admin('GET', `/api/admin/experiments/${id}/results`)).json();
    expect(r.srm.ok).toBe(false);
    expect(r.srm.pValue).toBeLessThan(0.001);
    expect(r.verdict).toMatch(/^Warning: the visitors are not split as the weights ask/);
    // 10 of the 2,200 visitor-days saw both arms.
    expect(r.multipleExposureRate).toBeCloseTo(10 / 2200, 10);
  });
});
