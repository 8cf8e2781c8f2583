import { Readable } from 'node:stream';
import { AD_CONVERSION_EXPORTS, type AdPlatform, adConversionsFileName } from '@uf/shared/ad-conversions';
import type { AdConversionsQuery } from '@uf/shared/admin-leads.schema';
import type { Pool } from 'pg';
import { recordAudit } from '../admin/audit.service';
import { withoutTimeouts } from '../db/database';
import { type ConversionSettings, conversionFileStart, conversionLine } from './ad-conversions-csv';
import type { Actor } from './admin-leads.service';

// Offline conversions for the ad platforms (issue 24, ADR 059): the website leads of a range of business
// days that came from a click of that platform, as the file its import takes. Leads on the suppression
// list (opted out) or that sent Global Privacy Control (do not sell or share) are left out: uploading
// their click to an ad network is sharing their data.

const BATCH = 2000;

/**
 * The leads' query: created within the business days [from, to] in TIME_ZONE (like every other date
 * filter), with the platform's click id, not opted out, not do-not-sell; oldest first.
 */
function conversionLeadsSql(): string {
  return `select id, attribution->>$1::text as click_id, created_at from website_lead
    where attribution ? $1::text
      and created_at >= ($2::date::timestamp at time zone $4::text)
      and created_at < (($3::date + 1)::timestamp at time zone $4::text)
      and opted_out_at is null and not do_not_sell
    order by created_at, id`;
}

export type ConversionExport = { fileName: string; stream: Readable };

/**
 * Starts the file: its name and a stream of its lines, read through a cursor in batches (flat memory
 * however many leads). The cursor is open before the answer starts, so a database that is away is a
 * 503, not a cut file. The audit entry is written once every row has been read.
 */
export async function exportAdConversions(
  pool: Pool,
  platform: AdPlatform,
  options: { query: AdConversionsQuery; timeZone: string; settings: ConversionSettings; actor: Actor },
): Promise<ConversionExport> {
  const { query, timeZone, settings } = options;
  const client = await pool.connect();
  try {
    // Streams at the pace of the download: no statement_timeout (as the CSV export, ADR 056).
    await withoutTimeouts(client);
    await client.query('begin read only');
    await client.query(`declare conversions no scroll cursor for ${conversionLeadsSql()}`, [
      AD_CONVERSION_EXPORTS[platform].clickId,
      query.from,
      query.to,
      timeZone,
    ]);
  } catch (err) {
    client.release(true);
    throw err;
  }
  let started = false;
  async function* generate() {
    started = true;
    let rows = 0;
    try {
      yield conversionFileStart(platform, timeZone);
      for (;;) {
        const batch = await client.query<{ id: string; click_id: string; created_at: Date }>(
          `fetch ${BATCH} from conversions`,
        );
        if (batch.rows.length === 0) break;
        rows += batch.rows.length;
        yield batch.rows
          .map((r) =>
            conversionLine(
              platform,
              { id: r.id, clickId: r.click_id, createdAt: r.created_at },
              settings,
              timeZone,
            ),
          )
          .join('');
      }
      await client.query('commit');
    } finally {
      // Without timeouts (and, when abandoned mid-file, mid-transaction): never back to the pool.
      client.release(true);
    }
    await recordAudit(pool, {
      actor: options.actor.username,
      action: 'leads.export_conversions',
      detail: { platform, from: query.from, to: query.to, rows },
      ipAddress: options.actor.ipAddress,
    });
  }
  const stream = Readable.from(generate(), { objectMode: false });
  // Destroyed before its first read (client gone at once): the generator never ran its finally.
  stream.once('close', () => {
    if (!started) client.release(true);
  });
  return { fileName: adConversionsFileName(platform, query.from, query.to), stream };
}
