import { isSafeText } from './text-safety';

// Where a visit came from (issue 15, ADR 055): the UTM parameters and ad click ids of the landing URL,
// captured on the first page view of a browser session, sent with every analytics event and with the
// lead submission, and stored for reporting only (never trusted for anything else). No zod here: the
// landing page runs this; the request field is in attribution.schema.ts.

export const UTM_KEYS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;
/** Click ids the big ad networks append to a landing URL, in the order they are looked for. */
export const CLICK_ID_KEYS = [
  'gclid',
  'gbraid',
  'wbraid',
  'msclkid',
  'fbclid',
  'ttclid',
  'li_fat_id',
] as const;
export type UtmKey = (typeof UTM_KEYS)[number];
export type ClickIdKey = (typeof CLICK_ID_KEYS)[number];

/**
 * Meta's first-party cookies (issue 24), read by the server from the submission's own request, never
 * from the URL or the body: `_fbc` (the click, `fb.1.<ms>.<fbclid>`) and `_fbp` (the browser,
 * `fb.1.<ms>.<random>`), kept as `fbc` and `fbp` — the names Meta's Conversions API gives them.
 */
export const META_COOKIES = { fbc: '_fbc', fbp: '_fbp' } as const;
export type MetaCookieKey = keyof typeof META_COOKIES;

/**
 * The click ids a website lead shows as fields of its own (issue 24, ADR 059): in the admin table and
 * drawer, the lead API and the CSV export (after the spec's columns), in this order.
 */
export const LEAD_CLICK_ID_FIELDS = [
  'gclid',
  'gbraid',
  'wbraid',
  'fbclid',
  'fbc',
  'fbp',
  'msclkid',
  'ttclid',
] as const satisfies readonly (ClickIdKey | MetaCookieKey)[];
export type LeadClickIdField = (typeof LEAD_CLICK_ID_FIELDS)[number];

/**
 * Longest value kept, in characters. Text is cut (a report needs no more); a click id or Meta cookie
 * longer than its cap is dropped instead — cut, it would name no click (ADR 059).
 */
export const ATTRIBUTION_LIMITS = { utm: 100, clickId: 500, landingReferrer: 2048 } as const;
/** Click ids are URL tokens; anything else is not one and is dropped. */
const CLICK_ID_PATTERN = /^[A-Za-z0-9._~-]+$/;
/** `fb.<subdomain index>.<creation time, ms>.<fbclid or random number>` */
const META_COOKIE_PATTERN = /^fb\.\d\.\d{1,16}\.[A-Za-z0-9._~-]+$/;

/** The captured values: every key optional; source and medium lower-cased so 'Google' = 'google'. */
export type Attribution = Partial<Record<UtmKey | ClickIdKey | MetaCookieKey, string>> & {
  /** The external page the visit came from (document.referrer at landing), when there was one. */
  landingReferrer?: string;
};

const LOWER_CASED: ReadonlySet<string> = new Set(['utm_source', 'utm_medium']);

function cleanUtm(key: string, raw: unknown): string | undefined {
  if (typeof raw !== 'string' || !isSafeText(raw)) return undefined;
  const value = raw.replace(/\s+/g, ' ').trim().slice(0, ATTRIBUTION_LIMITS.utm).trim();
  if (!value) return undefined;
  return LOWER_CASED.has(key) ? value.toLowerCase() : value;
}

function cleanToken(raw: unknown, pattern: RegExp): string | undefined {
  if (typeof raw !== 'string') return undefined;
  const value = raw.trim();
  return value && value.length <= ATTRIBUTION_LIMITS.clickId && pattern.test(value) ? value : undefined;
}

/** A click id as the URL carried it: a URL token of at most ATTRIBUTION_LIMITS.clickId characters. */
const cleanClickId = (raw: unknown) => cleanToken(raw, CLICK_ID_PATTERN);

function cleanReferrer(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || !isSafeText(raw)) return undefined;
  const value = raw.trim();
  return value && /^https?:\/\//i.test(value)
    ? value.slice(0, ATTRIBUTION_LIMITS.landingReferrer)
    : undefined;
}

/**
 * The known keys of `raw` with usable values, capped; everything else dropped. Lenient on purpose:
 * a campaign name an ad network mangled must never cost the visitor their lead or their event.
 */
export function cleanAttribution(raw: unknown): Attribution {
  const out: Attribution = {};
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return out;
  const record = raw as Record<string, unknown>;
  for (const key of UTM_KEYS) {
    const value = cleanUtm(key, record[key]);
    if (value) out[key] = value;
  }
  for (const key of CLICK_ID_KEYS) {
    const value = cleanClickId(record[key]);
    if (value) out[key] = value;
  }
  const referrer = cleanReferrer(record.landingReferrer);
  if (referrer) out.landingReferrer = referrer;
  return out;
}

/**
 * The attribution with Meta's `_fbc` / `_fbp` cookies of the request added when they are present and
 * well formed (issue 24): the cookies travel with every same-site request, so both doors of a lead —
 * the app's fetch and the browser's own form post — carry them without the page reading them. A
 * malformed cookie is left out, never a reason to refuse the lead.
 */
export function withMetaCookies(
  attribution: Attribution,
  cookies: Record<string, string | undefined>,
): Attribution {
  let out = attribution;
  for (const [key, cookie] of Object.entries(META_COOKIES) as [MetaCookieKey, string][]) {
    const value = cleanToken(cookies[cookie], META_COOKIE_PATTERN);
    if (value) out = { ...out, [key]: value };
  }
  return out;
}

/**
 * What the landing URL and the document referrer say about the visit (the browser side): the known
 * parameters as they came. The server cleans them (cleanAttribution); the landing page carries no more
 * code than reading them.
 */
export function attributionFromLanding(
  search: string,
  referrer: string,
  ownHost: string,
): Record<string, string> {
  const params = new URLSearchParams(search);
  const raw: Record<string, string> = {};
  for (const key of [...UTM_KEYS, ...CLICK_ID_KEYS]) {
    const value = params.get(key);
    if (value) raw[key] = value;
  }
  try {
    if (referrer && new URL(referrer).host !== ownHost) raw.landingReferrer = referrer;
  } catch {
    // not an address: no referrer
  }
  return raw;
}

/** The first click id present, as [name, value]. */
export function firstClickId(a: Attribution): [ClickIdKey, string] | undefined {
  for (const key of CLICK_ID_KEYS) {
    const value = a[key];
    if (value) return [key, value];
  }
  return undefined;
}

export const hasAttribution = (a: Attribution) => Object.keys(a).length > 0;
