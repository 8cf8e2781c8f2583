import { describe, expect, it } from 'vitest';
import { deviceClass } from './device-class';

// Issue 26: the categories a user agent is counted under (only these are stored).

describe('deviceClass', () => {
  it.each([
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      { deviceType: 'mobile', browser: 'Safari', os: 'iOS' },
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
      { deviceType: 'mobile', browser: 'Chrome', os: 'Android' },
    ],
    [
      'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      { deviceType: 'tablet', browser: 'Safari', os: 'iOS' },
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      { deviceType: 'desktop', browser: 'Microsoft Edge', os: 'Windows' },
    ],
    ['something odd', { deviceType: 'unknown', browser: 'Unknown', os: 'Unknown' }],
  ])('%s', (ua, expected) => {
    expect(deviceClass(ua)).toEqual(expected);
    expect(deviceClass(ua)).toBe(deviceClass(ua)); // cached
  });
});
