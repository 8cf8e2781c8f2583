import { describe, expect, it } from 'vitest';
import { dropReason } from './bot-filter';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

describe('dropReason', () => {
  it.each([CHROME, SAFARI_IPHONE, FIREFOX])('counts an ordinary browser: %s', (ua) => {
    expect(dropReason({ userAgent: ua })).toBeNull();
  });

  it('drops a request without a user agent', () => {
    expect(dropReason({ userAgent: undefined })).toBe('missing_user_agent');
    expect(dropReason({ userAgent: '   ' })).toBe('missing_user_agent');
  });

  it.each([
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
    'Mozilla/5.0 (Unknown; Linux x86_64) AppleWebKit/538.1 (KHTML, like Gecko) PhantomJS/2.1.1 Safari/538.1',
    `${CHROME} Chrome-Lighthouse`,
    'Mozilla/5.0 Playwright/1.49',
  ])('drops a headless or automated browser: %s', (ua) => {
    expect(dropReason({ userAgent: ua })).toBe('headless_browser');
  });

  it('drops Chromium whose client hints name it headless even with a normal user agent', () => {
    expect(dropReason({ userAgent: CHROME, secChUa: '"HeadlessChrome";v="131", "Chromium";v="131"' })).toBe(
      'headless_browser',
    );
    expect(
      dropReason({ userAgent: CHROME, secChUa: '"Google Chrome";v="131", "Chromium";v="131"' }),
    ).toBeNull();
  });

  it.each([
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
    'curl/8.5.0',
    'python-requests/2.32.3',
    'node',
    'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  ])('drops crawlers and scripts: %s', (ua) => {
    expect(dropReason({ userAgent: ua })).toBe('bot');
  });
});
