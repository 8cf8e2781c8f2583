// Offline conversions for the ad platforms (issue 24, ADR 059): which platforms, where their files come
// from and what they are called. No zod here (the admin chunk imports it); the query schema is in
// admin-leads.schema.ts.

export const AD_PLATFORMS = ['google', 'microsoft'] as const;
export type AdPlatform = (typeof AD_PLATFORMS)[number];

/** What each platform's file is, as the admin screen names it and the server serves it. */
export const AD_CONVERSION_EXPORTS: Record<
  AdPlatform,
  { label: string; path: string; filePrefix: string; clickId: 'gclid' | 'msclkid' }
> = {
  google: {
    label: 'Google Ads conversions',
    path: '/api/admin/exports/google-ads-conversions',
    filePrefix: 'google-ads-conversions',
    clickId: 'gclid',
  },
  microsoft: {
    label: 'Microsoft Ads conversions',
    path: '/api/admin/exports/microsoft-ads-conversions',
    filePrefix: 'microsoft-ads-conversions',
    clickId: 'msclkid',
  },
};

/** google-ads-conversions-2026-11-01-to-2026-11-07.csv: the business days the file covers. */
export function adConversionsFileName(platform: AdPlatform, from: string, to: string): string {
  return `${AD_CONVERSION_EXPORTS[platform].filePrefix}-${from}-to-${to}.csv`;
}
