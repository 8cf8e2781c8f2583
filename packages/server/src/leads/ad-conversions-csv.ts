import type { AdPlatform } from '@uf/shared/ad-conversions';
import { AD_COST_CURRENCY } from '@uf/shared/ad-costs';
import { dateAndTimeIn } from '../platform/time';

// The offline-conversion files of the ad platforms (issue 24, ADR 059), as pure text: what a lead
// with a click id becomes in Google Ads' click-conversion import and in Microsoft Advertising's bulk
// file, and (issue 35) a returned lead in Google Ads' conversion adjustments import. The service streams
// the leads; everything about the format is here.

/** Name, value and currency of the conversion (ADS_CONVERSION_*); value '' leaves it to the platform. */
export type ConversionSettings = { name: string; value: string; currency: string };

/**
 * One lead as a conversion: its id, the platform's click id, when the lead was stored and, when a buyer
 * bought it, its sale price (a decimal string such as '25.00'; null when unsold).
 */
export type ConversionLead = { id: string; clickId: string; createdAt: Date; price: string | null };

/**
 * The value and currency a lead's conversion carries (issue 35): its sale price, in the currency buyers
 * pay in, when it was sold (returned or not: the retraction is the adjustments file); otherwise the fixed
 * ADS_CONVERSION_VALUE in ADS_CONVERSION_CURRENCY.
 */
export function conversionValue(
  lead: Pick<ConversionLead, 'price'>,
  settings: ConversionSettings,
): { value: string; currency: string } {
  return lead.price === null
    ? { value: settings.value, currency: settings.currency }
    : { value: lead.price, currency: AD_COST_CURRENCY };
}

/** Google Ads' template (Conversions › Uploads), the columns of a click conversion without order id. */
export const GOOGLE_ADS_HEADER = [
  'Google Click ID',
  'Conversion Name',
  'Conversion Time',
  'Conversion Value',
  'Conversion Currency',
] as const;

/**
 * Google Ads' conversion adjustments template (Conversions › Uploads › Adjustments), by click id: the
 * conversion it adjusts (click id, name, time as uploaded), when and how it is adjusted.
 */
export const GOOGLE_ADS_ADJUSTMENTS_HEADER = [
  'Google Click ID',
  'Conversion Name',
  'Conversion Time',
  'Adjustment Time',
  'Adjustment Type',
  'Adjustment Value',
  'Adjustment Value Currency',
] as const;

/** Microsoft Advertising's Bulk file, Offline Conversion record (Bulk file schema, format version 6.0). */
export const MICROSOFT_ADS_HEADER = [
  'Type',
  'Status',
  'Id',
  'Parent Id',
  'Client Id',
  'Name',
  'Conversion Currency Code',
  'Conversion Name',
  'Conversion Time',
  'Conversion Value',
  'Microsoft Click Id',
] as const;

/** RFC 4180: a cell with a comma, quote or line break is quoted, its quotes doubled. */
export function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export const csvLine = (cells: readonly string[]) => `${cells.map(csvCell).join(',')}\n`;

/** Google: `yyyy-MM-dd HH:mm:ss`, wall time in the zone the file's first line names. */
export function googleAdsTime(instant: Date, timeZone: string): string {
  const { date, time } = dateAndTimeIn(instant, timeZone);
  return `${date} ${time}`;
}

/** Microsoft's bulk file wants UTC as an xsd:dateTime: `2026-05-01T16:00:00Z`. */
export function microsoftAdsTime(instant: Date): string {
  return `${instant.toISOString().slice(0, 19)}Z`;
}

/** What the file starts with, before any conversion. */
export function conversionFileStart(platform: AdPlatform, timeZone: string): string {
  if (platform === 'google') return `Parameters:TimeZone=${timeZone}\n${csvLine(GOOGLE_ADS_HEADER)}`;
  // The bulk schema's second row names its format version (in the Name column).
  const formatVersion = MICROSOFT_ADS_HEADER.map((column) =>
    column === 'Type' ? 'Format Version' : column === 'Name' ? '6.0' : '',
  );
  return csvLine(MICROSOFT_ADS_HEADER) + csvLine(formatVersion);
}

/** One conversion line. Microsoft's Client Id (echoed in its results file) is the lead's id. */
export function conversionLine(
  platform: AdPlatform,
  lead: ConversionLead,
  settings: ConversionSettings,
  timeZone: string,
): string {
  const { value, currency } = conversionValue(lead, settings);
  if (platform === 'google') {
    return csvLine([lead.clickId, settings.name, googleAdsTime(lead.createdAt, timeZone), value, currency]);
  }
  const byColumn: Partial<Record<(typeof MICROSOFT_ADS_HEADER)[number], string>> = {
    Type: 'Offline Conversion',
    'Client Id': lead.id,
    'Conversion Currency Code': currency,
    'Conversion Name': settings.name,
    'Conversion Time': microsoftAdsTime(lead.createdAt),
    'Conversion Value': value,
    'Microsoft Click Id': lead.clickId,
  };
  return csvLine(MICROSOFT_ADS_HEADER.map((column) => byColumn[column] ?? ''));
}

/** The adjustments file's start: the same time zone parameter as the conversions file, then its header. */
export function adjustmentsFileStart(timeZone: string): string {
  return `Parameters:TimeZone=${timeZone}\n${csvLine(GOOGLE_ADS_ADJUSTMENTS_HEADER)}`;
}

/** A returned lead: its gclid, when it was stored (its conversion's time) and when it was returned. */
export type ReturnedLead = { clickId: string; createdAt: Date; returnedAt: Date };

/**
 * One RETRACT: the conversion named and timed exactly as the conversions file uploaded it (Google finds
 * it by click id, name and time); a retraction has no value and no currency.
 */
export function retractionLine(lead: ReturnedLead, settings: ConversionSettings, timeZone: string): string {
  return csvLine([
    lead.clickId,
    settings.name,
    googleAdsTime(lead.createdAt, timeZone),
    googleAdsTime(lead.returnedAt, timeZone),
    'RETRACT',
    '',
    '',
  ]);
}
