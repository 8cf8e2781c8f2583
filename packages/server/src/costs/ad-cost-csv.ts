import {
  AD_COST_CURRENCY,
  AD_COST_PLATFORMS,
  type AdCostPlatform,
  MAX_AD_COST_ROWS,
  MAX_DAILY_COST,
} from '@uf/shared/ad-costs';
import { parseCents } from '@uf/shared/money';

// The ad platforms' campaign reports, read (issue 35). Each platform writes a few lines above its header
// (report name, date range, time zone), totals below or among its rows, and a footer; the header line is
// what says which platform wrote the file. Pure: the text in, the day rows (in cents) or the line that
// cannot be read out.

/**
 * A file that cannot be read: the import is refused (400) with its line and why — and, when rows broke the
 * limits a row of the rows import keeps (issue 47), every such row with its own reason.
 */
export class CostFileError extends Error {
  readonly problems: { line: number; reason: string }[];
  constructor(
    readonly line: number,
    readonly reason: string,
    more: { line: number; reason: string }[] = [],
  ) {
    super(`line ${line}: ${reason}`);
    this.problems = [{ line, reason }, ...more];
  }
}

export type CostLine = {
  line: number;
  date: string;
  source: string;
  campaign: string;
  cents: number;
};

export type CostFile = {
  platform: AdCostPlatform;
  rows: CostLine[];
  skipped: { line: number; reason: string }[];
};

/** Header names compared without case, spaces or underscores ("Campaign name" = "CampaignName"). */
const norm = (s: string) => s.toLowerCase().replace(/[\s_]+/g, '');

type Layout = {
  platform: AdCostPlatform;
  date: string;
  campaign: string;
  /** The cost column's name, or a pattern whose group 1 is the currency (Meta's "Amount spent (USD)"). */
  cost: string | RegExp;
  currency?: string;
  /** Meta: a row covers Reporting starts … Reporting ends; only one-day rows are costs of a day. */
  until?: string;
};

// Checked in this order: Meta's header has "Campaign name" as Microsoft's may, so its own columns first.
const LAYOUTS: Layout[] = [
  {
    platform: 'meta',
    date: 'reportingstarts',
    until: 'reportingends',
    campaign: 'campaignname',
    cost: /^amountspent\(([a-z]{3})\)$/,
  },
  {
    platform: 'microsoft',
    date: 'timeperiod',
    campaign: 'campaignname',
    cost: 'spend',
    currency: 'currencycode',
  },
  { platform: 'google', date: 'day', campaign: 'campaign', cost: 'cost', currency: 'currencycode' },
];

/** Lines looked at for the header: the platforms' preambles are a handful. */
const HEADER_SEARCH = 30;

/** One line's fields (RFC 4180 quoting, within the line: the reports never break a field across lines). */
export function splitLine(text: string, delimiter: string, line: number): string[] {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (text[i] === '"') {
      let value = '';
      i += 1;
      for (;;) {
        const close = text.indexOf('"', i);
        if (close < 0) throw new CostFileError(line, 'a quoted field is not closed');
        value += text.slice(i, close);
        i = close + 1;
        if (text[i] !== '"') break;
        value += '"';
        i += 1;
      }
      fields.push(value);
      if (i < text.length && text[i] !== delimiter) {
        throw new CostFileError(line, `text after a quoted field (field ${fields.length})`);
      }
    } else {
      const end = text.indexOf(delimiter, i);
      fields.push(text.slice(i, end < 0 ? text.length : end));
      i = end < 0 ? text.length : end;
    }
    if (i >= text.length) return fields;
    i += 1; // the delimiter
    if (i === text.length) {
      fields.push('');
      return fields;
    }
  }
}

type Columns = {
  date: number;
  campaign: number;
  cost: number;
  currency?: number;
  until?: number;
  fixedCurrency?: string;
};

function columnsOf(header: string[], layout: Layout): Columns | null {
  const names = header.map(norm);
  const date = names.indexOf(layout.date);
  const campaign = names.indexOf(layout.campaign);
  let cost = -1;
  let fixedCurrency: string | undefined;
  if (typeof layout.cost === 'string') cost = names.indexOf(layout.cost);
  else {
    const pattern = layout.cost;
    cost = names.findIndex((n) => pattern.test(n));
    fixedCurrency = cost >= 0 ? names[cost]?.match(pattern)?.[1]?.toUpperCase() : undefined;
  }
  if (date < 0 || campaign < 0 || cost < 0) return null;
  const currency = layout.currency ? names.indexOf(layout.currency) : -1;
  const until = layout.until ? names.indexOf(layout.until) : -1;
  return {
    date,
    campaign,
    cost,
    ...(currency >= 0 ? { currency } : {}),
    ...(until >= 0 ? { until } : {}),
    ...(fixedCurrency ? { fixedCurrency } : {}),
  };
}

const pad = (n: number) => String(n).padStart(2, '0');
function isRealDay(y: number, m: number, d: number) {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** A report's day: 2026-11-03 (every platform's default), or 11/3/2026 (Microsoft's US-format exports). */
export function parseReportDay(text: string): string | null {
  const s = text.trim();
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s);
  if (m) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    return isRealDay(y, mo, d) ? `${y}-${pad(mo)}-${pad(d)}` : null;
  }
  m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
  if (m) {
    const [mo, d, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
    return isRealDay(y, mo, d) ? `${y}-${pad(mo)}-${pad(d)}` : null;
  }
  return null;
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: AD_COST_CURRENCY });

/**
 * A cost cell as whole cents ("--" and "" are no spend), or why it cannot be one. The rows import's limits
 * (issue 47): at most two decimals — a fraction of a cent is refused, never rounded ("1.230" is whole
 * cents and is taken) — and at most MAX_DAILY_COST.
 */
export function readCost(text: string): { cents: number } | { problem: string } {
  const s = text.trim();
  if (s === '' || s === '--') return { cents: 0 };
  const cents = parseCents(s);
  if (cents === null) return { problem: `"${s}" is not an amount` };
  if (/\.\d{2}\d*[1-9]/.test(s)) {
    return {
      problem: `"${s}" has more than 2 decimals: costs are whole cents, and a fraction is not rounded`,
    };
  }
  if (cents > MAX_DAILY_COST * 100) {
    return { problem: `"${s}" is more than ${usd.format(MAX_DAILY_COST)}, the largest cost of a day` };
  }
  return { cents };
}

/**
 * A totals line: Google's "Total: Account", "Total: Campaigns", Microsoft's and Meta's "Total", in whichever
 * column — but only where the day is not a day, so a campaign named "Total Auto Cover" stays a campaign.
 */
const isTotal = (fields: string[], dateField: string) =>
  parseReportDay(dateField) === null && fields.some((f) => /^total\b/i.test(f.trim()));

/**
 * The day rows of a campaign report. Lines before the header are the platform's preamble, one-field lines
 * after it its notes and footer (Microsoft's copyright line), totals and summary lines (no day, or no
 * campaign name) are left out: none of them is one campaign's cost of one day. Anything else that cannot be read refuses the file with its line.
 */
export function readCostFile(text: string): CostFile {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  let header:
    | { index: number; width: number; layout: Layout; columns: Columns; delimiter: string }
    | undefined;
  for (let i = 0; i < Math.min(lines.length, HEADER_SEARCH) && !header; i++) {
    const raw = lines[i] ?? '';
    const delimiter = raw.includes('\t') ? '\t' : ',';
    let fields: string[];
    try {
      fields = splitLine(raw, delimiter, i + 1);
    } catch {
      continue; // A preamble line may hold anything.
    }
    for (const layout of LAYOUTS) {
      const columns = columnsOf(fields, layout);
      if (columns) {
        header = { index: i, width: fields.length, layout, columns, delimiter };
        break;
      }
    }
  }
  if (!header) {
    throw new CostFileError(
      1,
      'no header line of a campaign report by day was found: Google Ads (Day, Campaign, Cost), Microsoft Advertising (TimePeriod, CampaignName, Spend) or Meta Ads Manager (Reporting starts, Campaign name, Amount spent (USD))',
    );
  }
  const { layout, columns: c, delimiter } = header;
  const source = AD_COST_PLATFORMS[layout.platform].source;
  const rows: CostLine[] = [];
  const skipped: CostFile['skipped'] = [];
  // Rows that break a row's limits: every one of them is named in the refusal, not only the first.
  const refused: { line: number; reason: string }[] = [];
  for (let i = header.index + 1; i < lines.length; i++) {
    const line = i + 1;
    const raw = lines[i] ?? '';
    if (raw.trim() === '') continue;
    const fields = splitLine(raw, delimiter, line);
    if (fields.length === 1 || isTotal(fields, fields[c.date] ?? '')) continue;
    // A field more or less (an unquoted "1,204.07") would shift the columns: the cost read would be another.
    if (fields.length !== header.width) {
      throw new CostFileError(line, `${fields.length} fields where the header has ${header.width}`);
    }
    const at = (k: number) => (fields[k] ?? '').trim();
    const date = parseReportDay(at(c.date));
    if (!date) {
      refused.push({ line, reason: `"${at(c.date)}" is not a day (YYYY-MM-DD or M/D/YYYY)` });
      continue;
    }
    const cost = readCost(at(c.cost));
    if ('problem' in cost) {
      refused.push({ line, reason: cost.problem });
      continue;
    }
    const { cents } = cost;
    const campaign = at(c.campaign);
    // Meta's summary row ("Include summary row") is the one without a campaign name.
    if (!campaign) continue;
    if (campaign.length > 255)
      throw new CostFileError(line, 'the campaign name is longer than 255 characters');
    const currency =
      (c.currency === undefined ? c.fixedCurrency : at(c.currency).toUpperCase()) || AD_COST_CURRENCY;
    if (currency !== AD_COST_CURRENCY) {
      skipped.push({ line, reason: `the cost is in ${currency}, not ${AD_COST_CURRENCY}` });
      continue;
    }
    if (c.until !== undefined) {
      const until = parseReportDay(at(c.until));
      if (until !== date) {
        skipped.push({
          line,
          reason: 'the row covers more than one day: export the report broken down by day',
        });
        continue;
      }
    }
    rows.push({ line, date, source, campaign, cents });
    if (rows.length > MAX_AD_COST_ROWS) {
      throw new CostFileError(line, `more than ${MAX_AD_COST_ROWS} rows in one file: split it by date`);
    }
  }
  const [first, ...more] = refused;
  if (first) throw new CostFileError(first.line, first.reason, more);
  return { platform: layout.platform, rows, skipped };
}
