// Referrer handling shared by the server (normalising what is stored and counted) and the analytics
// dashboard (the display rule of spec §4). Pure functions: no I/O, no globals besides URL.

export const DIRECT_REFERRER = 'direct';
export const UNKNOWN_REFERRER = 'unknown';

/** Spec §4 thresholds, in characters. */
export const REFERRER_DISPLAY = { fullMax: 45, pathMax: 25, pathCut: 22, fallbackCut: 42 } as const;

const HAS_SCHEME = /^[a-z][a-z\d+.-]*:\/\//i;

/** Parses an address the way spec §4 reads it: a missing scheme means https. Null when unusable. */
export function parseReferrerAddress(raw: string): URL | null {
  const value = raw.trim();
  if (!value) return null;
  try {
    const url = new URL(HAS_SCHEME.test(value) ? value : `https://${value}`);
    return url.hostname ? url : null;
  } catch {
    return null;
  }
}

/** The host without a leading 'www.' (URL has already lower-cased it). */
export function domainOfUrl(url: URL): string {
  return url.hostname.replace(/^www\./, '');
}

function isSpecialReferrer(value: string): boolean {
  return value === '' || value === DIRECT_REFERRER || value === UNKNOWN_REFERRER;
}

export type NormalisedReferrer = {
  /** Host with the scheme assumed and 'www.' dropped; 'direct' (none or self) or 'unknown'. */
  host: string;
  /**
   * The address counted in Top Referrers: scheme, host (without 'www.'), port and path. The query and
   * fragment are dropped: they carry search terms and click ids that are private and never repeat.
   */
  address: string;
};

/**
 * What the server stores and counts for a referrer as the browser sent it. A referrer on the site's
 * own host (`ownHost`, port ignored, 'www.' ignored) is a self-referral and counts as 'direct'.
 */
export function normaliseReferrer(raw: string, ownHost?: string): NormalisedReferrer {
  const value = raw.trim();
  if (value === '' || value.toLowerCase() === DIRECT_REFERRER) {
    return { host: DIRECT_REFERRER, address: DIRECT_REFERRER };
  }
  const url = parseReferrerAddress(value);
  if (!url) return { host: UNKNOWN_REFERRER, address: UNKNOWN_REFERRER };
  const host = domainOfUrl(url);
  if (
    ownHost &&
    host ===
      ownHost
        .toLowerCase()
        .replace(/:\d+$/, '')
        .replace(/^www\./, '')
  ) {
    return { host: DIRECT_REFERRER, address: DIRECT_REFERRER };
  }
  const port = url.port ? `:${url.port}` : '';
  return { host, address: `${url.protocol}//${host}${port}${url.pathname}` };
}

export type ReferrerDisplay = {
  /** The shortened address shown in the list. */
  text: string;
  /** The domain shown under it; null for 'direct', 'unknown', empty or unparseable referrers. */
  domain: string | null;
  /** Hover title: always the full address. */
  title: string;
};

/** Spec §4 referrer display rule. */
export function displayReferrer(referrer: string): ReferrerDisplay {
  const { fullMax, pathMax, pathCut, fallbackCut } = REFERRER_DISPLAY;
  if (isSpecialReferrer(referrer)) return { text: referrer, domain: null, title: referrer };
  const url = parseReferrerAddress(referrer);
  if (!url) {
    const text = referrer.length > fullMax ? `${referrer.slice(0, fallbackCut)}...` : referrer;
    return { text, domain: null, title: referrer };
  }
  const domain = domainOfUrl(url);
  if (referrer.length <= fullMax) return { text: referrer, domain, title: referrer };
  const pathAndQuery = `${url.pathname}${url.search}`;
  const text =
    pathAndQuery.length <= pathMax
      ? `${domain}${pathAndQuery}`
      : `${domain}${pathAndQuery.slice(0, pathCut)}...`;
  return { text, domain, title: referrer };
}
