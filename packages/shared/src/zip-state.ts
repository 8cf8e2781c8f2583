import zipData from './data/zip3-state.json' with { type: 'json' };
import { isUsStateCode, type UsStateCode } from './state-sites';

// USPS 3-digit ZIP prefix → state (50 states only). DC, territories and military mail map to unknown.
// Five-digit exceptions (ZIPs that cross a prefix's state line) are applied first.

type ZipData = {
  prefixToState: Record<string, string>;
  fiveDigitExceptions: Record<string, { state: string }>;
};
const data = zipData as unknown as ZipData;

export const UNKNOWN_STATE = 'unknown';

export function stateFromZip(zipCode: string): UsStateCode | null {
  const match = /^(\d{5})(?:-\d{4})?$/.exec(zipCode.trim());
  if (!match?.[1]) return null;
  const five = match[1];
  const candidate = data.fiveDigitExceptions[five]?.state ?? data.prefixToState[five.slice(0, 3)];
  return candidate && isUsStateCode(candidate) ? candidate : null;
}
