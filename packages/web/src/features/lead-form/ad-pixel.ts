import { AD_PIXEL_EVENT_ID } from '@uf/shared/constants';

// Ad conversions (spec §4, §9): only when an ad pixel is configured (AD_PIXEL_SCRIPT_URL) and its tag
// has loaded. The tag is expected to read the standard `dataLayer` queue (Google Tag Manager style).

export type ConversionKind = 'signup' | 'lead';
type PixelWindow = { dataLayer?: unknown[] };

let requested = false;

/** Loads the configured tag once; nothing third-party loads when no URL is configured. */
export function loadAdPixel(scriptUrl: string | null, doc: Document = document): void {
  if (!scriptUrl || requested) return;
  requested = true;
  const w = doc.defaultView as (Window & PixelWindow) | null;
  if (w && !Array.isArray(w.dataLayer)) w.dataLayer = [];
  const script = doc.createElement('script');
  script.async = true;
  script.src = scriptUrl;
  doc.head.appendChild(script);
}

/** Pushes a conversion when a pixel is configured and present; returns whether it did. */
export function pushConversion(
  kind: ConversionKind,
  scriptUrl: string | null,
  w: PixelWindow = window as PixelWindow,
): boolean {
  if (!scriptUrl || !Array.isArray(w.dataLayer)) return false;
  w.dataLayer.push({ event: `${kind}_conversion`, conversion: kind, eventId: AD_PIXEL_EVENT_ID });
  return true;
}
