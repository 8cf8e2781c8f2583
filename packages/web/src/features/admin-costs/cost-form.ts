import {
  AD_COST_CURRENCY,
  AD_COST_PLATFORMS,
  type AdCostImportAnswer,
  type AdCostPlatform,
  MAX_AD_COST_CSV,
} from '@uf/shared/ad-costs';

// The ad costs screen's words and requests (issue 35), pure: unit-tested beside. The server judges every
// field again (ad-costs.schema.ts); these checks only spare a round trip for a blank or unreadable field.

const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** 1204.5 → '$1,204.50'. */
export const usd = (amount: number) => USD.format(amount);

/** YYYY-MM-DD `days` before the calendar date `date` (no time zone involved). */
export function daysBefore(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
}

/** The screen's first range: the last 30 business days, today included. */
export const lastThirtyDays = (today: string) => ({ from: daysBefore(today, 29), to: today });

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Why a range cannot be shown, or null when it can. */
export function rangeProblem(from: string, to: string): string | null {
  if (!DAY.test(from) || !DAY.test(to)) return 'Choose both dates of the range.';
  if (from > to) return 'The first date is after the last one.';
  return null;
}

/** The columns each platform's campaign report is recognised by (the server's reader, issue 35). */
export const RECOGNISED_REPORTS: { platform: AdCostPlatform; columns: string }[] = [
  { platform: 'google', columns: 'Day, Campaign, Cost' },
  { platform: 'microsoft', columns: 'TimePeriod, CampaignName, Spend' },
  { platform: 'meta', columns: 'Reporting starts, Campaign name, Amount spent (USD)' },
];

/** 'Google Ads campaign report (Day, Campaign, Cost), filed under source google'. */
export function reportWords(r: (typeof RECOGNISED_REPORTS)[number]): string {
  const p = AD_COST_PLATFORMS[r.platform];
  return `${p.name} (${r.columns}): filed under source “${p.source}”`;
}

/** The sources the platforms' reports are filed under, suggested for a day entered by hand. */
export const KNOWN_SOURCES: string[] = Object.values(AD_COST_PLATFORMS).map((p) => p.source);

/** '$1,204.50', '1204.5', ' 12 ' → the number of dollars; anything else (more than 2 decimals too) → null. */
export function parseCost(text: string): number | null {
  const plain = text.trim().replace(/^\$/, '').replace(/,/g, '').trim();
  if (!/^\d+(?:\.\d{1,2})?$/.test(plain)) return null;
  return Number(plain);
}

export type ManualDay = { date: string; source: string; campaign: string; cost: string };
export type ManualField = keyof ManualDay;
export type ManualRequest =
  | {
      ok: true;
      request: { rows: [{ date: string; source: string; campaign: string; cost: number; currency: string }] };
    }
  | { ok: false; errors: Partial<Record<ManualField, string>> };

/** A day entered by hand → the import's `{ rows: [one row] }`, or what to fix beside each field. */
export function manualRequest(form: ManualDay): ManualRequest {
  const errors: Partial<Record<ManualField, string>> = {};
  const source = form.source.trim();
  const campaign = form.campaign.trim();
  const cost = parseCost(form.cost);
  if (!DAY.test(form.date)) errors.date = 'Enter the day, YYYY-MM-DD';
  if (!source) errors.source = 'Enter the source (the utm_source of the clicks)';
  if (!campaign) errors.campaign = 'Enter the campaign (its utm_campaign)';
  if (cost === null) errors.cost = 'Enter the cost in dollars, e.g. 120.50';
  if (Object.keys(errors).length > 0 || cost === null) return { ok: false, errors };
  return {
    ok: true,
    request: { rows: [{ date: form.date, source, campaign, cost, currency: AD_COST_CURRENCY }] },
  };
}

/** The server's field errors for the one row sent ('rows.0.cost') → the form's fields. */
export function manualFieldErrors(
  fieldErrors: { field: string; message: string }[] | undefined,
): Partial<Record<ManualField, string>> {
  const errors: Partial<Record<ManualField, string>> = {};
  for (const e of fieldErrors ?? []) {
    const field = e.field.replace(/^rows\.0\./, '');
    if (field === 'date' || field === 'source' || field === 'campaign' || field === 'cost') {
      errors[field] ??= e.message;
    }
  }
  return errors;
}

/** A picked file's text → the import's `{ csv }`, or why it cannot be sent. */
export function fileRequest(
  text: string,
): { ok: true; request: { csv: string } } | { ok: false; error: string } {
  if (text.trim() === '') return { ok: false, error: 'The file is empty.' };
  if (text.length > MAX_AD_COST_CSV) {
    return {
      ok: false,
      error: `The file is too large (at most ${MAX_AD_COST_CSV.toLocaleString('en-US')} characters): export fewer days.`,
    };
  }
  return { ok: true, request: { csv: text } };
}

/** What the screen's cost "rows" are, said wherever it counts them. */
export const ROW_MEANS = 'A row is one campaign’s cost on one day.';

const count = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * '3 rows imported, 1 replaced, 2 lines skipped. A row is one campaign's cost on one day.' The answer
 * counts rows (day × source × campaign), not days: a report of 3 campaigns over 1 day is 3 rows (issue 49).
 */
export function importWords(answer: AdCostImportAnswer): string {
  const parts = [
    `${count(answer.imported, 'row')} imported`,
    `${answer.replaced.toLocaleString('en-US')} replaced`,
  ];
  if (answer.skipped.length > 0) parts.push(`${count(answer.skipped.length, 'line')} skipped`);
  // Issue 47: lines of the same day and campaign are summed into one row, and the answer says so.
  const mergedLines = answer.merged.reduce((n, m) => n + m.lines.length, 0);
  if (mergedLines > 0) {
    parts.push(`${count(mergedLines, 'line')} merged into ${count(answer.merged.length, 'row')}`);
  }
  return `${parts.join(', ')}. ${ROW_MEANS}`;
}

export type CostDeletion = { source: string; campaign?: string; from: string; to: string };

/** What the confirmation says before costs are deleted. */
export function deletionWords(d: CostDeletion): string {
  const what = d.campaign ? `the campaign “${d.campaign}” of ${d.source}` : `every campaign of ${d.source}`;
  const days = d.from === d.to ? `on ${d.from}` : `from ${d.from} to ${d.to}`;
  return `Delete the imported cost of ${what} ${days}? Import the report again to get it back.`;
}
