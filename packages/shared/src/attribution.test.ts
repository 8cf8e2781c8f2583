import { describe, expect, it } from 'vitest';
import {
  ATTRIBUTION_LIMITS,
  attributionFromLanding,
  cleanAttribution,
  firstClickId,
  withMetaCookies,
} from './attribution';
import { deriveChannel, reportedSource } from './channel';

describe('attributionFromLanding', () => {
  it('reads the UTM parameters and click ids of the landing URL', () => {
    const a = attributionFromLanding(
      '?utm_source=Google&utm_medium=CPC&utm_campaign=Spring%20Sale&utm_term=unclaimed&utm_content=ad-1&gclid=X_1&other=1',
      '',
      'example.com',
    );
    expect(a).toEqual({
      utm_source: 'Google',
      utm_medium: 'CPC',
      utm_campaign: 'Spring Sale',
      utm_term: 'unclaimed',
      utm_content: 'ad-1',
      gclid: 'X_1',
    });
    // The server keeps them cleaned: source and medium lower-cased.
    expect(cleanAttribution(a)).toMatchObject({ utm_source: 'google', utm_medium: 'cpc' });
  });

  it('keeps an external referrer and ignores the site itself', () => {
    expect(attributionFromLanding('', 'https://www.bing.com/search?q=x', 'example.com')).toEqual({
      landingReferrer: 'https://www.bing.com/search?q=x',
    });
    expect(attributionFromLanding('', 'https://example.com/terms', 'example.com')).toEqual({});
    expect(attributionFromLanding('', '', 'example.com')).toEqual({});
  });
});

describe('cleanAttribution', () => {
  it('caps long text, drops over-long click ids (cut, one names no click) and what is not usable', () => {
    const a = cleanAttribution({
      utm_campaign: 'c'.repeat(500),
      utm_source: '   ',
      utm_medium: 'bad\u0000value',
      gclid: 'has space',
      fbclid: 'f'.repeat(ATTRIBUTION_LIMITS.clickId),
      msclkid: 'm'.repeat(ATTRIBUTION_LIMITS.clickId + 1),
      landingReferrer: 'javascript:alert(1)',
      extra: 'dropped',
    });
    expect(a).toEqual({
      utm_campaign: 'c'.repeat(ATTRIBUTION_LIMITS.utm),
      fbclid: 'f'.repeat(ATTRIBUTION_LIMITS.clickId),
    });
  });

  it('never takes Meta cookie values from the body', () => {
    expect(cleanAttribution({ fbc: 'fb.1.1700000000000.abc', fbp: 'fb.1.1700000000000.123' })).toEqual({});
  });

  it('accepts anything, keeping nothing from what is not an object', () => {
    expect(cleanAttribution(undefined)).toEqual({});
    expect(cleanAttribution('utm_source=x')).toEqual({});
    expect(cleanAttribution(['x'])).toEqual({});
    expect(cleanAttribution({ utm_source: 42 })).toEqual({});
  });

  it('adds well-formed Meta cookies of the request and leaves out malformed ones', () => {
    const base = { gclid: 'g1' };
    expect(
      withMetaCookies(base, { _fbc: 'fb.1.1732000000000.IwAR2xyz-_', _fbp: 'fb.1.1732000000000.1116446470' }),
    ).toEqual({ gclid: 'g1', fbc: 'fb.1.1732000000000.IwAR2xyz-_', fbp: 'fb.1.1732000000000.1116446470' });
    expect(withMetaCookies(base, { _fbc: 'not a cookie', _fbp: `fb.1.1.${'9'.repeat(600)}` })).toEqual(base);
    expect(withMetaCookies(base, {})).toBe(base);
  });

  it('names the first click id in a fixed order', () => {
    expect(firstClickId({ fbclid: 'b', gclid: 'a' })).toEqual(['gclid', 'a']);
    expect(firstClickId({})).toBeUndefined();
  });
});

describe('deriveChannel', () => {
  const ch = (attribution: Record<string, string>, referrerHost = 'direct') =>
    deriveChannel({ attribution, referrerHost });

  it.each([
    [{}, 'direct', 'Direct'],
    [{}, 'google.com', 'Organic Search'],
    [{}, 'google.co.uk', 'Organic Search'],
    [{}, 'duckduckgo.com', 'Organic Search'],
    [{ gclid: 'x' }, 'google.com', 'Paid Search'],
    [{ utm_source: 'google', utm_medium: 'cpc' }, 'direct', 'Paid Search'],
    [{ msclkid: 'x' }, 'direct', 'Paid Search'],
    [{ utm_source: 'facebook', utm_medium: 'paid' }, 'direct', 'Paid Social'],
    [{ fbclid: 'x', utm_medium: 'cpc' }, 'direct', 'Paid Social'],
    [{ ttclid: 'x' }, 'direct', 'Paid Social'],
    [{ fbclid: 'x' }, 'direct', 'Organic Social'],
    [{}, 'l.facebook.com', 'Organic Social'],
    [{}, 't.co', 'Organic Social'],
    [{ utm_medium: 'social' }, 'direct', 'Organic Social'],
    [{ utm_medium: 'email', utm_source: 'newsletter' }, 'direct', 'Email'],
    [{}, 'mail.google.com', 'Email'],
    [{ utm_source: 'chatgpt.com' }, 'direct', 'AI Assistants'],
    [{}, 'perplexity.ai', 'AI Assistants'],
    [{}, 'gemini.google.com', 'AI Assistants'],
    [{}, 'news.example.org', 'Referral'],
    [{ utm_source: 'partner-site' }, 'direct', 'Referral'],
    [{}, 'unknown', 'Direct'],
  ])('%j from %s is %s', (attribution, host, channel) => {
    expect(ch(attribution, host)).toBe(channel);
  });

  it('reports the UTM source, else the referrer host, else direct', () => {
    expect(reportedSource({ utm_source: 'google' }, 'bing.com')).toBe('google');
    expect(reportedSource({}, 'bing.com')).toBe('bing.com');
    expect(reportedSource({}, 'direct')).toBe('direct');
    expect(reportedSource({}, 'unknown')).toBe('direct');
  });
});
