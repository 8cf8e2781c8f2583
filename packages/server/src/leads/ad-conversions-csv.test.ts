import { describe, expect, it } from 'vitest';
import {
  adjustmentsFileStart,
  conversionFileStart,
  conversionLine,
  csvCell,
  googleAdsTime,
  microsoftAdsTime,
  retractionLine,
} from './ad-conversions-csv';

const SETTINGS = { name: 'Lead', value: '', currency: 'USD' };
const LEAD = {
  id: '0b9f3d4e-1111-4222-8333-444455556666',
  clickId: 'Cj0KCQiA-abc_123',
  createdAt: new Date('2026-07-04T03:05:09.999Z'),
  price: null,
};

describe('Google Ads click conversions', () => {
  it('starts with the time zone parameter and the template header', () => {
    expect(conversionFileStart('google', 'America/New_York')).toBe(
      'Parameters:TimeZone=America/New_York\n' +
        'Google Click ID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency\n',
    );
  });

  it('writes the time as wall time in TIME_ZONE, to the second', () => {
    // 03:05 UTC on 4 July is 23:05 the evening before in New York (EDT, UTC-4)…
    expect(googleAdsTime(LEAD.createdAt, 'America/New_York')).toBe('2026-07-03 23:05:09');
    // …and in winter the offset is -5; midnight is 00, never 24.
    expect(googleAdsTime(new Date('2026-01-15T05:00:00Z'), 'America/New_York')).toBe('2026-01-15 00:00:00');
    expect(conversionLine('google', LEAD, SETTINGS, 'America/New_York')).toBe(
      'Cj0KCQiA-abc_123,Lead,2026-07-03 23:05:09,,USD\n',
    );
  });

  it('quotes a conversion name that holds a comma or a quote', () => {
    const line = conversionLine(
      'google',
      LEAD,
      { name: 'Lead, "qualified"', value: '12.50', currency: 'EUR' },
      'UTC',
    );
    expect(line).toBe('Cj0KCQiA-abc_123,"Lead, ""qualified""",2026-07-04 03:05:09,12.50,EUR\n');
  });
});

describe('conversion values (issue 35)', () => {
  const EUR = { name: 'Lead', value: '10', currency: 'EUR' };
  it('a sold lead carries its sale price in USD (what buyers pay in), whatever ADS_CONVERSION_*', () => {
    const sold = { ...LEAD, price: '37.50' };
    expect(conversionLine('google', sold, EUR, 'UTC')).toBe(
      'Cj0KCQiA-abc_123,Lead,2026-07-04 03:05:09,37.50,USD\n',
    );
    expect(conversionLine('microsoft', sold, EUR, 'UTC')).toBe(
      'Offline Conversion,,,,0b9f3d4e-1111-4222-8333-444455556666,,USD,Lead,2026-07-04T03:05:09Z,37.50,Cj0KCQiA-abc_123\n',
    );
  });

  it('a lead without a price falls back to ADS_CONVERSION_VALUE in ADS_CONVERSION_CURRENCY', () => {
    expect(conversionLine('google', LEAD, EUR, 'UTC')).toBe(
      'Cj0KCQiA-abc_123,Lead,2026-07-04 03:05:09,10,EUR\n',
    );
  });
});

describe('Google Ads conversion adjustments (issue 35)', () => {
  it("starts like the conversions file, with the adjustments template's header", () => {
    expect(adjustmentsFileStart('America/New_York')).toBe(
      'Parameters:TimeZone=America/New_York\n' +
        'Google Click ID,Conversion Name,Conversion Time,Adjustment Time,Adjustment Type,Adjustment Value,Adjustment Value Currency\n',
    );
  });

  it('retracts the conversion as it was uploaded: same name, the original time, no value', () => {
    expect(
      retractionLine(
        { clickId: LEAD.clickId, createdAt: LEAD.createdAt, returnedAt: new Date('2026-07-10T14:00:00Z') },
        { name: 'Lead, web', value: '12.5', currency: 'USD' },
        'America/New_York',
      ),
    ).toBe('Cj0KCQiA-abc_123,"Lead, web",2026-07-03 23:05:09,2026-07-10 10:00:00,RETRACT,,\n');
  });
});

describe('Microsoft Advertising bulk offline conversions', () => {
  it('starts with the bulk header and the format version row', () => {
    expect(conversionFileStart('microsoft', 'America/New_York')).toBe(
      'Type,Status,Id,Parent Id,Client Id,Name,Conversion Currency Code,Conversion Name,Conversion Time,Conversion Value,Microsoft Click Id\n' +
        'Format Version,,,,,6.0,,,,,\n',
    );
  });

  it('writes one Offline Conversion record per lead, its time in UTC', () => {
    expect(microsoftAdsTime(LEAD.createdAt)).toBe('2026-07-04T03:05:09Z');
    expect(
      conversionLine(
        'microsoft',
        { ...LEAD, clickId: 'f894f652ea334e739002f7167ab8f8e3' },
        { ...SETTINGS, value: '10' },
        'America/New_York',
      ),
    ).toBe(
      'Offline Conversion,,,,0b9f3d4e-1111-4222-8333-444455556666,,USD,Lead,2026-07-04T03:05:09Z,10,f894f652ea334e739002f7167ab8f8e3\n',
    );
  });
});

describe('csvCell', () => {
  it('leaves plain text alone and quotes what RFC 4180 says to', () => {
    expect(csvCell('abc')).toBe('abc');
    expect(csvCell('a\nb')).toBe('"a\nb"');
  });
});
