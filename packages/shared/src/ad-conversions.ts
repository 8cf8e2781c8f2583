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

/**
 * Which leads a conversion file counts (issue 35): accepted leads (the default), or sold ones only. Either
 * way a lead its buyer returned is left out (issue 47): it is no conversion to bid on, and one uploaded
 * before the return is retracted by the retraction file.
 */
export const AD_CONVERSION_COUNTS = ['accepted', 'sold'] as const;
export type AdConversionCount = (typeof AD_CONVERSION_COUNTS)[number];
export const AD_CONVERSION_COUNT_LABELS: Record<AdConversionCount, string> = {
  accepted: 'Accepted leads',
  sold: 'Sold leads only',
};

/**
 * The retraction files (issue 35 for Google; issue 47 for Microsoft): a retraction for each lead returned
 * by its buyer, so the conversion uploaded with its price stops counting — Google Ads' conversion
 * adjustments import (RETRACT) and Microsoft Advertising's bulk Offline Conversion records with
 * Adjustment Type "Retract".
 */
export const AD_ADJUSTMENT_EXPORTS: Record<
  AdPlatform,
  { label: string; path: string; filePrefix: string; clickId: 'gclid' | 'msclkid' }
> = {
  google: {
    label: 'Google Ads conversion adjustments',
    path: '/api/admin/exports/google-ads-conversion-adjustments',
    filePrefix: 'google-ads-conversion-adjustments',
    clickId: 'gclid',
  },
  microsoft: {
    label: 'Microsoft Ads conversion retractions',
    path: '/api/admin/exports/microsoft-ads-conversion-adjustments',
    filePrefix: 'microsoft-ads-conversion-adjustments',
    clickId: 'msclkid',
  },
};
export const GOOGLE_ADS_ADJUSTMENTS_EXPORT = AD_ADJUSTMENT_EXPORTS.google;

/** google-ads-conversion-adjustments-2026-11-01-to-2026-11-07.csv: the business days of the returns. */
export function adAdjustmentsFileName(from: string, to: string, platform: AdPlatform = 'google'): string {
  return `${AD_ADJUSTMENT_EXPORTS[platform].filePrefix}-${from}-to-${to}.csv`;
}

/** google-ads-conversions-2026-11-01-to-2026-11-07.csv: the business days the file covers. */
export function adConversionsFileName(platform: AdPlatform, from: string, to: string): string {
  return `${AD_CONVERSION_EXPORTS[platform].filePrefix}-${from}-to-${to}.csv`;
}
