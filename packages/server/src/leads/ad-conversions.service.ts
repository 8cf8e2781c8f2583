import { Readable } from 'node:stream';
import {
  AD_ADJUSTMENT_EXPORTS,
  AD_CONVERSION_EXPORTS,
  type AdConversionCount,
  type AdPlatform,
  adAdjustmentsFileName,
  adConversionsFileName,
} from '@uf/shared/ad-conversions';
import type { AdAdjustmentsQuery, AdConversionsQuery } from '@uf/shared/admin-leads.schema';
import type { Pool, QueryResultRow } from 'pg';
import { recordAudit } from '../admin/audit.service';
import { withoutTimeouts } from '../db/database';
import {
  adjustmentsFileStart,
  type ConversionSettings,
  conversionFileStart,
  conversionLine,
  retractionLine,
} from './ad-conversions-csv';
import type { Actor } from './admin-leads.service';

// Offline conversions for the ad platforms (issue 24, ADR 059): the website leads of a range of business
// days that came from a click of that platform, as the file its import takes. Leads on the suppression
// list (opted out) or that sent Global Privacy Control (do not sell or share) are left out: uploading
// their click to an ad network is sharing their data. Issue 35: a sold lead's conversion carries its
// price, and the leads buyers returned are retracted by Google Ads' conversion adjustments file. Issue 47:
// a returned lead leaves both conversion files (it earned nothing), and Microsoft Advertising gets its
// retraction file too.

const BATCH = 2000;

/** Leads created within the business days [from, to] in TIME_ZONE (like every other date filter). */
const CREATED_IN_RANGE = `l.created_at >= ($2::date::timestamp at time zone $4::text)
      and l.created_at < (($3::date + 1)::timestamp at time zone $4::text)`;

/**
 * The leads' query: created within the range, with the platform's click id, not opted out, not
 * do-not-sell, not returned by a buyer; oldest first. Which leads count (issue 35): `accepted` — the leads
 * lead quality accepted (ADR 065) — or `sold`, the ones a buyer bought. A sold lead carries its price. A
 * returned lead is in neither (issue 47, ADR 073): once returned it earned nothing; if its conversion went
 * up before the return, the retraction file takes it back.
 */
function conversionLeadsSql(count: AdConversionCount): string {
  // `accepted`: the leads lead quality accepted (a bot's lead is no conversion to bid on); `sold`: those a
  // buyer bought.
  const counted = count === 'sold' ? `and s.status = 'sold'` : `and l.quality_verdict = 'accept'`;
  return `select l.id, l.attribution->>$1::text as click_id, l.created_at,
      case when s.status = 'sold' then (s.price_cents / 100.0)::numeric(14, 2)::text end as price
    from website_lead l
    left join lead_sale s on s.lead_id = l.id and s.lead_kind = 'website'
    where l.attribution ? $1::text and ${CREATED_IN_RANGE}
      and l.opted_out_at is null and not l.do_not_sell and s.returned_at is null ${counted}
    order by l.created_at, l.id`;
}

/**
 * The returns of a range (issue 35): website leads with the platform's click id that a buyer bought and
 * returned within the business days [from, to], oldest return first. The same privacy rule as the
 * conversions file.
 */
const RETURNED_LEADS_SQL = `select l.id, l.attribution->>$1::text as click_id, l.created_at, s.returned_at
    from lead_sale s join website_lead l on l.id = s.lead_id
    where s.lead_kind = 'website' and s.status = 'sold' and s.returned_at is not null
      and s.returned_at >= ($2::date::timestamp at time zone $4::text)
      and s.returned_at < (($3::date + 1)::timestamp at time zone $4::text)
      and l.attribution ? $1::text and l.opted_out_at is null and not l.do_not_sell
    order by s.returned_at, l.id`;

export type ConversionExport = { fileName: string; stream: Readable };

type CsvExport<Row> = {
  sql: string;
  params: unknown[];
  start: string;
  line: (row: Row) => string;
  fileName: string;
  actor: Actor;
  /** What the audit entry records besides the row count. */
  detail: Record<string, unknown>;
};

/**
 * Starts a file: its name and a stream of its lines, read through a cursor in batches (flat memory
 * however many leads). The cursor is open before the answer starts, so a database that is away is a
 * 503, not a cut file. The audit entry is written once every row has been read.
 */
async function streamCsvExport<Row>(pool: Pool, file: CsvExport<Row>): Promise<ConversionExport> {
  const client = await pool.connect();
  try {
    // Streams at the pace of the download: no statement_timeout (as the CSV export, ADR 056).
    await withoutTimeouts(client);
    await client.query('begin read only');
    await client.query(`declare conversions no scroll cursor for ${file.sql}`, file.params);
  } catch (err) {
    client.release(true);
    throw err;
  }
  let started = false;
  async function* generate() {
    started = true;
    let rows = 0;
    try {
      yield file.start;
      for (;;) {
        const batch = await client.query<Row & QueryResultRow>(`fetch ${BATCH} from conversions`);
        if (batch.rows.length === 0) break;
        rows += batch.rows.length;
        yield batch.rows.map(file.line).join('');
      }
      await client.query('commit');
    } finally {
      // Without timeouts (and, when abandoned mid-file, mid-transaction): never back to the pool.
      client.release(true);
    }
    await recordAudit(pool, {
      actor: file.actor.username,
      action: 'leads.export_conversions',
      detail: { ...file.detail, rows },
      ipAddress: file.actor.ipAddress,
    });
  }
  const stream = Readable.from(generate(), { objectMode: false });
  // Destroyed before its first read (client gone at once): the generator never ran its finally.
  stream.once('close', () => {
    if (!started) client.release(true);
  });
  return { fileName: file.fileName, stream };
}

/** A platform's conversions file for a range of business days. */
export function exportAdConversions(
  pool: Pool,
  platform: AdPlatform,
  options: { query: AdConversionsQuery; timeZone: string; settings: ConversionSettings; actor: Actor },
): Promise<ConversionExport> {
  const { query, timeZone, settings } = options;
  return streamCsvExport<{ id: string; click_id: string; created_at: Date; price: string | null }>(pool, {
    sql: conversionLeadsSql(query.count),
    params: [AD_CONVERSION_EXPORTS[platform].clickId, query.from, query.to, timeZone],
    start: conversionFileStart(platform, timeZone),
    line: (r) =>
      conversionLine(
        platform,
        { id: r.id, clickId: r.click_id, createdAt: r.created_at, price: r.price },
        settings,
        timeZone,
      ),
    fileName: adConversionsFileName(platform, query.from, query.to),
    actor: options.actor,
    detail: { platform, from: query.from, to: query.to, count: query.count },
  });
}

/**
 * A platform's retraction file (issue 35 for Google, issue 47 for Microsoft): a retraction for each lead
 * returned in the range.
 */
export function exportAdAdjustments(
  pool: Pool,
  platform: AdPlatform,
  options: { query: AdAdjustmentsQuery; timeZone: string; settings: ConversionSettings; actor: Actor },
): Promise<ConversionExport> {
  const { query, timeZone, settings } = options;
  return streamCsvExport<{ id: string; click_id: string; created_at: Date; returned_at: Date }>(pool, {
    sql: RETURNED_LEADS_SQL,
    params: [AD_ADJUSTMENT_EXPORTS[platform].clickId, query.from, query.to, timeZone],
    start: adjustmentsFileStart(timeZone, platform),
    line: (r) =>
      retractionLine(
        { id: r.id, clickId: r.click_id, createdAt: r.created_at, returnedAt: r.returned_at },
        settings,
        timeZone,
        platform,
      ),
    fileName: adAdjustmentsFileName(query.from, query.to, platform),
    actor: options.actor,
    detail: { platform, file: 'adjustments', from: query.from, to: query.to },
  });
}
