import type { PoolClient } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/partners/partner-key.service';
import { lockKey } from '../src/platform/pg-transaction';
import { verdictSql } from '../src/quality/verdict-sql';
import { seedAdmin, signIn } from './support/admin';
import { visitorLeadBody } from './support/fixtures';
import { partnerLeadBody, postPartnerLead } from './support/partner';
import { startTestApp, type TestApp } from './support/test-app';
import { submitAsVisitor, testClock } from './support/visitor';

// lead_quality_look_batch() (issue 33): one call answers a whole batch's look-ups, after the locks of all
// its leads' keys, with what lead_quality_look() answers for each lead on its own. Called here directly,
// with leads a batch of the app never holds together (two with one phone), so each lead's answer is seen
// to depend on the stored leads only.

let t: TestApp;
const clock = testClock();
beforeAll(async () => {
  t = await startTestApp({}, { clock: clock.now });
});
afterAll(async () => {
  await t?.close();
});

type Keys = { id: string; phone: string; email: string; ip: string; nonce: string };
type Answer = {
  ord: string;
  dup_phone: string[] | null;
  dup_email: string[] | null;
  ip_10m: number | null;
  ip_24h: number | null;
  token_lead: string | null;
};
type Row = {
  ord: number;
  phone: string | null;
  email: string | null;
  ip: string | null;
  nonce: string | null;
};

const WINDOW_DAYS = 30;
const PER_10_MINUTES = 3;
const PER_DAY = 10;

/** A visitor's lead, stored by the app, with its look-up keys as the app stored them. */
async function storedLead(): Promise<Keys> {
  const res = await submitAsVisitor(t.app, clock, visitorLeadBody());
  expect(res.statusCode, res.body).toBe(200);
  const { id } = res.json() as { id: string };
  const { rows } = await t.app.db.pool.query<Keys>(
    `select id, phone_e164 as phone, email_key as email, ip_address as ip, form_token_nonce as nonce
     from website_lead where id = $1`,
    [id],
  );
  const keys = rows[0];
  if (!keys) throw new Error('lead not stored');
  return keys;
}

/** `count` more leads like `lead`, with the given phone and address (other e-mails, no token). */
async function copies(
  client: Pick<PoolClient, 'query'>,
  lead: Keys,
  count: number,
  phone: string,
  ip: string,
) {
  const { rows } = await client.query<{ id: string }>(
    `insert into website_lead
     select r.* from website_lead w, generate_series(1, $2::int) g,
       jsonb_populate_record(null::website_lead, to_jsonb(w) || jsonb_build_object('id', gen_random_uuid(),
         'email', 'copy' || g || '.' || $3::text || '.' || w.email, 'email_key', null, 'form_token_nonce', null,
         'phone_e164', $3::text, 'ip_address', $4::text)) r
     where w.id = $1
     returning id`,
    [lead.id, count, phone, ip],
  );
  return rows.map((r) => r.id);
}

async function lookBatch(client: Pick<PoolClient, 'query'>, rows: Row[], lockNames: string[]) {
  const { rows: answers } = await client.query<Answer>(
    `select * from lead_quality_look_batch($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[],
       $6::text[], $7::int, $8::int, $9::int)`,
    [
      rows.map((r) => r.ord),
      lockNames.map(lockKey),
      rows.map((r) => r.phone),
      rows.map((r) => r.email),
      rows.map((r) => r.ip),
      rows.map((r) => r.nonce),
      WINDOW_DAYS,
      PER_10_MINUTES,
      PER_DAY,
    ],
  );
  return answers;
}

/**
 * What lead_quality_look() answers for one lead on its own (the per-lead function the batch replaces), with
 * a lock key of its own (it fails without one).
 */
async function lookOne(client: Pick<PoolClient, 'query'>, row: Row): Promise<Answer> {
  const { rows } = await client.query<Omit<Answer, 'ord'>>(
    'select * from lead_quality_look($1::bigint[], $2, $3, $4, $5, $6, $7, $8)',
    [
      [lockKey(`test:one:${row.ord}`)],
      row.phone,
      row.email,
      row.ip,
      row.nonce,
      WINDOW_DAYS,
      PER_10_MINUTES,
      PER_DAY,
    ],
  );
  const answer = rows[0];
  if (!answer) throw new Error('lead_quality_look() answered no row');
  return { ord: String(row.ord), ...answer };
}

const sorted = (ids: string[] | null) => (ids ? [...ids].sort() : ids);
const comparable = (answers: Answer[]) =>
  [...answers]
    .sort((a, b) => Number(a.ord) - Number(b.ord))
    .map((a) => ({ ...a, dup_phone: sorted(a.dup_phone), dup_email: sorted(a.dup_email) }));

describe('lead_quality_look_batch', () => {
  it('answers each lead on its own: two leads of one call with one phone both see the stored lead, never each other', async () => {
    const stored = await storedLead();
    const rows: Row[] = [
      { ord: 5, phone: stored.phone, email: stored.email, ip: stored.ip, nonce: stored.nonce },
      { ord: 2, phone: stored.phone, email: null, ip: stored.ip, nonce: null },
      { ord: 9, phone: null, email: null, ip: null, nonce: null },
    ];
    const answers = await lookBatch(t.app.db.pool, rows, [`quality:phone:${stored.phone}`]);
    expect(comparable(answers)).toEqual([
      { ord: '2', dup_phone: [stored.id], dup_email: null, ip_10m: 1, ip_24h: 1, token_lead: null },
      {
        ord: '5',
        dup_phone: [stored.id],
        dup_email: [stored.id],
        ip_10m: 1,
        ip_24h: 1,
        token_lead: stored.id,
      },
      { ord: '9', dup_phone: null, dup_email: null, ip_10m: null, ip_24h: null, token_lead: null },
    ]);
    const one = await Promise.all(rows.map((row) => lookOne(t.app.db.pool, row)));
    expect(comparable(answers)).toEqual(comparable(one));
  });

  it('keeps lead_quality_look()’s limits: ten duplicate ids, an address counted up to its limit + 1', async () => {
    const stored = await storedLead();
    const phone = '+13125550142';
    const ip = '203.0.113.200';
    await copies(t.app.db.pool, stored, 12, phone, ip);
    const rows: Row[] = [{ ord: 1, phone, email: null, ip, nonce: null }];
    const [answer] = await lookBatch(t.app.db.pool, rows, []);
    expect(answer?.dup_phone).toHaveLength(10);
    expect(answer).toMatchObject({ ip_10m: PER_10_MINUTES + 1, ip_24h: PER_DAY + 1, token_lead: null });
    const one = await lookOne(t.app.db.pool, rows[0] as Row);
    expect(one).toMatchObject({ ip_10m: PER_10_MINUTES + 1, ip_24h: PER_DAY + 1 });
    expect(one.dup_phone).toHaveLength(10);
  });

  it('looks after the locks of every lead: a batch that shares a key waits for the other batch, then sees its lead', async () => {
    const stored = await storedLead();
    const phone = '+13125550177';
    const first = await t.app.db.pool.connect();
    const second = await t.app.db.pool.connect();
    try {
      await first.query('begin');
      await lookBatch(
        first,
        [{ ord: 1, phone, email: null, ip: null, nonce: null }],
        [`quality:phone:${phone}`, 'quality:email:first@example.com'],
      );
      const [copy] = await copies(first, stored, 1, phone, '203.0.113.201');

      await second.query('begin');
      const { rows: pid } = await second.query<{ pid: number }>('select pg_backend_pid() as pid');
      // The same phone's lock among others, given in another order and twice.
      const waiting = lookBatch(
        second,
        [{ ord: 1, phone, email: null, ip: null, nonce: null }],
        [
          'quality:token:zzz',
          `quality:phone:${phone}`,
          'quality:email:aaa@example.com',
          `quality:phone:${phone}`,
        ],
      );
      await expect
        .poll(async () => {
          const { rows } = await t.app.db.pool.query<{ n: number }>(
            "select count(*)::int as n from pg_locks where pid = $1 and locktype = 'advisory' and not granted",
            [pid[0]?.pid],
          );
          return rows[0]?.n;
        })
        .toBe(1);
      await first.query('commit');
      const [answer] = await waiting;
      expect(answer?.dup_phone).toEqual([copy]);
      await second.query('rollback');
    } finally {
      first.release();
      second.release();
    }
  });

  it('answers an empty batch (every partner lead refused by its rules) with no rows', async () => {
    const { rows } = await t.app.db.pool.query(
      'select * from lead_quality_look_batch(null, null, null, null, null, null, 30, 3, 10)',
    );
    expect(rows).toEqual([]);
  });

  it('judges a lead with no key to lock: a partner lead whose phone is on the allow list', async () => {
    // lead_quality_look() failed on such a lead ("FOREACH expression must not be null"), so the partner
    // got an error instead of its lead stored.
    await seedAdmin(t.app);
    const cookies = await signIn(t.app);
    const settings = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/quality/settings',
      cookies,
      payload: {
        actions: {},
        duplicateWindowDays: WINDOW_DAYS,
        velocity: { per10Minutes: PER_10_MINUTES, perDay: PER_DAY },
        minSecondsToSubmit: 3,
        allow: { emailDomains: [], phones: ['+13126412290'] },
      },
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const { secret } = await createApiKey(t.app.db.orm.em.fork(), 'Allow-list Partner');
    // Saving the settings puts them in force at once in this process.
    const res = await postPartnerLead(t.app, secret, partnerLeadBody({ phone: '(312) 641-2290' }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ verdict: 'reject', reasons: ['CONSENT_MISSING'] });
  });
});

// The batch statements judge a lead with verdictSql() inline; quality_verdict() (the database function a
// replica running older code still calls) must judge every lead alike.
describe('the verdict of a batch statement', () => {
  it('is what quality_verdict() says, for every mix of codes and actions', async () => {
    const codeSets = [
      [],
      ['PHONE_PATTERN'],
      ['PHONE_INVALID'],
      ['BOT_HONEYPOT'],
      ['BOT_HONEYPOT', 'BOT_TOO_FAST'],
      ['BOT_HONEYPOT', 'NAME_GIBBERISH'],
      ['BOT_TOKEN_REUSED', 'PHONE_PATTERN', 'ZIP_UNKNOWN'],
      ['EMAIL_TYPO', 'DUPLICATE_PHONE', 'VELOCITY_IP'],
      ['UNLISTED_CODE'],
    ];
    const actionSets = [
      {},
      { PHONE_PATTERN: 'accept', ZIP_UNKNOWN: 'accept', EMAIL_TYPO: 'accept', DUPLICATE_PHONE: 'accept' },
      { PHONE_INVALID: 'hold', BOT_HONEYPOT: 'accept', VELOCITY_IP: 'reject' },
      { BOT_TOO_FAST: 'accept', BOT_HONEYPOT: 'reject', BOT_TOKEN_REUSED: 'accept', PHONE_PATTERN: 'reject' },
    ];
    const { rows } = await t.app.db.pool.query<{
      codes: string[];
      actions: object;
      inline: string;
      fn: string;
    }>(
      `select c.codes, a.actions, ${verdictSql('c.codes', 'a.actions')} as inline,
         quality_verdict(c.codes, a.actions) as fn
       from unnest($1::text[]) c0(codes_text) cross join lateral (select codes_text::text[] as codes) c,
         unnest($2::jsonb[]) a(actions)`,
      [codeSets.map((codes) => `{${codes.join(',')}}`), actionSets.map((actions) => JSON.stringify(actions))],
    );
    expect(rows).toHaveLength(codeSets.length * actionSets.length);
    for (const row of rows) expect(row.inline, JSON.stringify(row)).toBe(row.fn);
    // The mix holds every verdict, so agreement is not three answers alike.
    expect(new Set(rows.map((row) => row.fn))).toEqual(new Set(['accept', 'hold', 'reject']));
  });
});
