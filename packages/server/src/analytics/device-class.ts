import Bowser from 'bowser';

// Device type, browser and operating system of a visitor (issue 26, ADR 060), derived from the user agent
// at ingest with bowser (MIT). Only these categories are stored, never the user agent. A parse costs
// 0.1–2 ms, so results are cached by user agent: real traffic has few distinct ones.

export type DeviceClass = { deviceType: string; browser: string; os: string };

/** Device types as the dashboard shows them; bowser's 'tv' and anything unknown are 'other'. */
const DEVICE_TYPES = new Set(['desktop', 'mobile', 'tablet']);
const UNKNOWN = 'Unknown';
const CACHE_SIZE = 2_000;
const MAX_NAME = 50;

const cache = new Map<string, DeviceClass>();

function parse(userAgent: string): DeviceClass {
  const result = Bowser.parse(userAgent);
  const type = result.platform.type ?? '';
  return {
    deviceType: DEVICE_TYPES.has(type) ? type : type ? 'other' : 'unknown',
    browser: (result.browser.name || UNKNOWN).slice(0, MAX_NAME),
    os: (result.os.name || UNKNOWN).slice(0, MAX_NAME),
  };
}

export function deviceClass(userAgent: string | undefined): DeviceClass {
  const ua = userAgent ?? '';
  const hit = cache.get(ua);
  if (hit) return hit;
  const parsed = parse(ua);
  // A bounded cache: when full, the oldest entry goes (Map keeps insertion order).
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(ua, parsed);
  return parsed;
}
