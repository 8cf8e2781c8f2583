import type { AdPlatform } from '@uf/shared/ad-conversions';
import { AD_COST_CURRENCY } from '@uf/shared/ad-costs';
import { dateAndTimeIn } from '../platform/time';

// The offline-conversion files of the ad platforms (issue 24, ADR 059), as pure text: what a lead
// with a click id becomes in Google Ads' click-conversion import and in Microsoft Advertising's bulk
// file, and (issue 35) a returned lead in Google Ads' conversion adjustments import. The service streams
// the leads; everything about the format is here. Issue 47: a returned lead in Microsoft Advertising's
// bulk file too, as an Offline Conversion record with Adjustment Type "Retract".

/** Name, value and currency of the conversion (ADS_CONVERSION_*); value '' leaves it to the platform. */
export type ConversionSettings = { name: string; value: string; currency: string };

/**
 * One lead as a conversion: its id, the platform's click id, when the lead was stored and, when a buyer
 * bought it, its sale price (a decimal string such as '25.00'; null when unsold).
 */
export type ConversionLead = { id: string; clickId: string; createdAt: Date; price: string | null };

/**
 * The value and currency a lead's conversion carries (issue 35): its sale price, in the currency buyers
 * pay in, when it was sold (a returned lead is not in the file: issue 47); otherwise the fixed
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

/**
 * Microsoft Advertising's retraction (Bulk file schema, Offline Conversion record): the same columns and the
 * adjustment's. To retract, the record names the conversion as it was uploaded (Conversion Name, Conversion
 * Time, Microsoft Click Id) with Adjustment Type "Retract" and the Adjustment Time, in UTC; no value.
 */
export const MICROSOFT_ADS_ADJUSTMENTS_HEADER = [
  ...MICROSOFT_ADS_HEADER,
  'Adjustment Type',
  'Adjustment Time',
  'Adjustment Value',
  'Adjustment Currency Code',
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

/** A bulk file's start: its header, then the schema's format version row (in the Name column). */
function microsoftBulkStart(header: readonly string[]): string {
  const formatVersion = header.map((column) =>
    column === 'Type' ? 'Format Version' : column === 'Name' ? '6.0' : '',
  );
  return csvLine(header) + csvLine(formatVersion);
}

/** What the file starts with, before any conversion. */
export function conversionFileStart(platform: AdPlatform, timeZone: string): string {
  if (platform === 'google') return `Parameters:TimeZone=${timeZone}\n${csvLine(GOOGLE_ADS_HEADER)}`;
  return microsoftBulkStart(MICROSOFT_ADS_HEADER);
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

/**
 * The retraction file's start: Google's, the same time zone parameter as the conversions file, then its
 * header; Microsoft's, the bulk header with the adjustment columns and the format version row.
 */
export function adjustmentsFileStart(timeZone: string, platform: AdPlatform = 'google'): string {
  if (platform === 'microsoft') return microsoftBulkStart(MICROSOFT_ADS_ADJUSTMENTS_HEADER);
  return `Parameters:TimeZone=${timeZone}\n${csvLine(GOOGLE_ADS_ADJUSTMENTS_HEADER)}`;
}

/**
 * A returned lead: its id, its click id, when it was stored (its conversion's time) and when it was
 * returned.
 */
export type ReturnedLead = { id?: string; clickId: string; createdAt: Date; returnedAt: Date };

/**
 * One retraction: the conversion named and timed exactly as the conversions file uploaded it (the platform
 * finds it by click id, name and time); a retraction has no value and no currency. Microsoft's echoes the
 * lead's id in Client Id, as its conversion did.
 */
export function retractionLine(
  lead: ReturnedLead,
  settings: ConversionSettings,
  timeZone: string,
  platform: AdPlatform = 'google',
): string {
  if (platform === 'microsoft') {
    const byColumn: Partial<Record<(typeof MICROSOFT_ADS_ADJUSTMENTS_HEADER)[number], string>> = {
      Type: 'Offline Conversion',
      'Client Id': lead.id ?? '',
      'Conversion Name': settings.name,
      'Conversion Time': microsoftAdsTime(lead.createdAt),
      'Microsoft Click Id': lead.clickId,
      'Adjustment Type': 'Retract',
      'Adjustment Time': microsoftAdsTime(lead.returnedAt),
    };
    return csvLine(MICROSOFT_ADS_ADJUSTMENTS_HEADER.map((column) => byColumn[column] ?? ''));
  }
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
