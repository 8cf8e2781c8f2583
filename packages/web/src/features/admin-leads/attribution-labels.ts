import type { LeadClickIdField } from '@uf/shared/attribution';

/** How the click ids are named on screen (issue 24): the parameter or cookie the value came from. */
export const CLICK_ID_LABELS: Record<LeadClickIdField, string> = {
  gclid: 'GCLID',
  gbraid: 'GBRAID',
  wbraid: 'WBRAID',
  fbclid: 'FBCLID',
  fbc: 'Meta _fbc',
  fbp: 'Meta _fbp',
  msclkid: 'MSCLKID',
  ttclid: 'TTCLID',
};

/** A key of the receipt's attribution as the receipt names it: 'GCLID', 'utm_source', 'Landing referrer'. */
export function attributionLabel(key: string): string {
  if (key in CLICK_ID_LABELS) return CLICK_ID_LABELS[key as LeadClickIdField];
  if (key === 'landingReferrer') return 'Landing referrer';
  return key;
}
