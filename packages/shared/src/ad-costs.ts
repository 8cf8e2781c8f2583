import { deriveChannel } from './channel';

// Ad cost (issue 35): what the clicks of a campaign cost, per day, imported from the ad platforms' reports
// or entered by hand; the names every part shares, zod-free for the admin screens. The schemas are
// ./ad-costs.schema.ts (input) and ./ad-costs.output.ts (answers).

/**
 * The only currency costs are kept in: buyers pay in USD (issue 34) and revenue is USD, so a cost in any
 * other currency could not be set against it. A row in another currency is refused, never converted.
 */
export const AD_COST_CURRENCY = 'USD';

/**
 * The platforms whose campaign reports are read, and the source their costs are filed under: the
 * utm_source their auto-tagging or recommended URL parameters give the clicks (Microsoft Advertising's
 * auto-tagging writes utm_source=bing; Meta's URL parameters template writes utm_source=facebook), which the
 * attribution code lower-cases and reports as the source (shared/channel.ts reportedSource).
 */
export const AD_COST_PLATFORMS = {
  google: { name: 'Google Ads', source: 'google' },
  microsoft: { name: 'Microsoft Advertising', source: 'bing' },
  meta: { name: 'Meta Ads Manager', source: 'facebook' },
} as const;
export type AdCostPlatform = keyof typeof AD_COST_PLATFORMS;

/** Rows one import may carry (JSON rows, or data lines of a file). */
export const MAX_AD_COST_ROWS = 20_000;
/** Characters of an uploaded report (a year of daily rows for a few hundred campaigns). */
export const MAX_AD_COST_CSV = 4_000_000;
/**
 * Largest cost of one campaign on one day, USD: above it a typo (a missing decimal point) is likelier. The
 * same for rows and files (issue 47: a file's 99,999,999,999 went in where a row's was refused).
 */
export const MAX_DAILY_COST = 10_000_000;

/**
 * How costs meet traffic: a source and a campaign name, trimmed and compared without regard to case
 * (a campaign is named by hand twice, in the ad platform and in its utm_campaign).
 */
export const costKey = (source: string, campaign: string) =>
  `${source.trim().toLowerCase()}\u0000${campaign.trim().toLowerCase()}`;

/**
 * The channel a campaign's cost is shown under when no visit of it was tracked: its clicks were bought, so
 * it is the paid channel of its source (Paid Social for the social networks, else Paid Search).
 */
export const costChannel = (source: string) =>
  deriveChannel({
    attribution: { utm_source: source.trim().toLowerCase(), utm_medium: 'cpc' },
    referrerHost: '',
  });

export type AdCostRow = {
  date: string;
  source: string;
  campaign: string;
  /** USD. */
  cost: number;
  currency: string;
  importedAt: string;
};

export type AdCostImportAnswer = {
  /** Rows written that were not there before. */
  imported: number;
  /** Rows that replaced a day already imported for their source and campaign. */
  replaced: number;
  /** Rows refused, by their line in the file (or their place in `rows`, from 1) and why. */
  skipped: { line: number; reason: string }[];
  /**
   * Issue 47: lines of one import with the same day, source and campaign (case and spaces aside) —
   * a report broken down by ad set, a campaign spelled twice — written as one row, their costs summed:
   * each merged row with its lines (as `skipped` numbers them), the spelling kept and the summed cost (USD).
   */
  merged: { lines: number[]; date: string; source: string; campaign: string; cost: number }[];
};
