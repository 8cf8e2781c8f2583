import { AD_COST_CURRENCY, type AdCostImportAnswer, type AdCostRow, costKey } from '@uf/shared/ad-costs';
import type { AdCostDeleteInput, AdCostImportInput } from '@uf/shared/ad-costs.schema';
import { ERROR_CODES } from '@uf/shared/errors';
import { centsOf, dollarsOf } from '@uf/shared/money';
import type { Pool } from 'pg';
import { recordAudit } from '../admin/audit.service';
import { AppError } from '../errors';
import { CostFileError, type CostLine, readCostFile } from './ad-cost-csv';

// Ad cost (issue 35): imports (rows or a platform's report), the list, deletes. Costs are whole cents here
// and in the table; dollars only in the answers.

type Actor = { username: string; ipAddress: string | null };

/** Refusals named one by one in a 400's fieldErrors; the message counts the rest. */
const LISTED_PROBLEMS = 50;

/**
 * Rows with the same day, source and campaign (a report broken down by ad set, a campaign named twice
 * with different case) are one cost: summed, so one statement can write them all — and said in the
 * answer (issue 47: `imported: 1` for three lines read as a lost row).
 */
export function mergeDays(rows: CostLine[]): { days: CostLine[]; merged: AdCostImportAnswer['merged'] } {
  const byKey = new Map<string, { day: CostLine; lines: number[] }>();
  for (const r of rows) {
    const key = `${r.date}\u0000${costKey(r.source, r.campaign)}`;
    const seen = byKey.get(key);
    if (seen) {
      seen.day.cents += r.cents;
      seen.lines.push(r.line);
    } else {
      const day = { ...r, source: r.source.trim().toLowerCase(), campaign: r.campaign.trim() };
      byKey.set(key, { day, lines: [r.line] });
    }
  }
  const groups = [...byKey.values()];
  return {
    days: groups.map((g) => g.day),
    merged: groups
      .filter((g) => g.lines.length > 1)
      .map(({ day, lines }) => ({
        lines,
        date: day.date,
        source: day.source,
        campaign: day.campaign,
        cost: dollarsOf(day.cents),
      })),
  };
}

/** JSON rows as the file's: the ones in another currency skipped (by their place, from 1), as a file's are. */
function fromRows(rows: NonNullable<AdCostImportInput['rows']>) {
  const lines: CostLine[] = [];
  const skipped: AdCostImportAnswer['skipped'] = [];
  rows.forEach((r, i) => {
    const currency = r.currency ?? AD_COST_CURRENCY;
    if (currency !== AD_COST_CURRENCY) {
      skipped.push({ line: i + 1, reason: `the cost is in ${currency}, not ${AD_COST_CURRENCY}` });
      return;
    }
    lines.push({
      line: i + 1,
      date: r.date,
      source: r.source,
      campaign: r.campaign,
      cents: centsOf(r.cost),
    });
  });
  return { lines, skipped };
}

export async function importAdCosts(
  pool: Pool,
  input: AdCostImportInput,
  actor: Actor,
): Promise<AdCostImportAnswer> {
  let lines: CostLine[];
  let skipped: AdCostImportAnswer['skipped'];
  let platform: string | undefined;
  if (input.csv !== undefined) {
    try {
      const file = readCostFile(input.csv);
      ({ rows: lines, skipped, platform } = file);
    } catch (err) {
      if (!(err instanceof CostFileError)) throw err;
      const others = err.problems.length - 1;
      throw new AppError(
        ERROR_CODES.validation,
        `The file cannot be read: line ${err.line}: ${err.reason}${others > 0 ? ` (and ${others} more ${others === 1 ? 'line' : 'lines'})` : ''}`,
        err.problems
          .slice(0, LISTED_PROBLEMS)
          .map((p) => ({ field: 'csv', message: `line ${p.line}: ${p.reason}` })),
        { line: err.line, lines: err.problems.map((p) => p.line) },
      );
    }
  } else {
    ({ lines, skipped } = fromRows(input.rows ?? []));
  }
  const { days, merged } = mergeDays(lines);
  let imported = 0;
  let replaced = 0;
  if (days.length) {
    // One statement for the whole import; a day already there is replaced (xmax is set on a row the
    // statement updated, 0 on one it inserted), so importing the same report twice changes nothing.
    const { rows } = await pool.query<{ inserted: boolean }>(
      `insert into ad_cost (day, source, campaign, cost_cents, currency)
       select * from unnest($1::date[], $2::text[], $3::text[], $4::bigint[], $5::text[])
       on conflict (day, source, lower(campaign)) do update
         set campaign = excluded.campaign, cost_cents = excluded.cost_cents,
           currency = excluded.currency, imported_at = now()
       returning (xmax = 0) as inserted`,
      [
        days.map((d) => d.date),
        days.map((d) => d.source),
        days.map((d) => d.campaign),
        days.map((d) => d.cents),
        days.map(() => AD_COST_CURRENCY),
      ],
    );
    for (const r of rows) {
      if (r.inserted) imported += 1;
      else replaced += 1;
    }
  }
  const dates = days.map((d) => d.date).sort();
  await recordAudit(pool, {
    actor: actor.username,
    action: 'ad_costs.import',
    detail: {
      from: platform ?? 'rows',
      imported,
      replaced,
      skipped: skipped.length,
      merged: merged.length,
      ...(dates.length ? { firstDay: dates[0], lastDay: dates[dates.length - 1] } : {}),
    },
    ipAddress: actor.ipAddress,
  });
  return { imported, replaced, skipped, merged };
}

export async function listAdCosts(
  pool: Pool,
  range: { from: string; to: string },
): Promise<{ rows: AdCostRow[]; totalCost: number }> {
  const { rows } = await pool.query<{
    date: string;
    source: string;
    campaign: string;
    cost_cents: string;
    currency: string;
    imported_at: Date;
  }>(
    `select day::text as date, source, campaign, cost_cents::text, currency, imported_at
     from ad_cost where day between $1::date and $2::date
     order by day, source, lower(campaign)`,
    [range.from, range.to],
  );
  let total = 0;
  const out = rows.map((r) => {
    const cents = Number(r.cost_cents);
    total += cents;
    return {
      date: r.date,
      source: r.source,
      campaign: r.campaign,
      cost: dollarsOf(cents),
      currency: r.currency,
      importedAt: r.imported_at.toISOString(),
    };
  });
  return { rows: out, totalCost: dollarsOf(total) };
}

export async function deleteAdCosts(
  pool: Pool,
  input: AdCostDeleteInput,
  actor: Actor,
): Promise<{ deleted: number }> {
  const params: unknown[] = [input.from, input.to, input.source.toLowerCase()];
  const campaign =
    input.campaign === undefined ? '' : `and lower(campaign) = lower($${params.push(input.campaign)})`;
  const { rowCount } = await pool.query(
    `delete from ad_cost where day between $1::date and $2::date and source = $3 ${campaign}`,
    params,
  );
  const deleted = rowCount ?? 0;
  await recordAudit(pool, {
    actor: actor.username,
    action: 'ad_costs.delete',
    detail: { ...input, deleted },
    ipAddress: actor.ipAddress,
  });
  return { deleted };
}
