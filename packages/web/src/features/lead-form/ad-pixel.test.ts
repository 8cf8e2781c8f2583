import { describe, expect, it } from 'vitest';
import { pushConversion } from './ad-pixel';

describe('pushConversion', () => {
  it('pushes the conversion with event id 1912368 when a pixel is configured and present', () => {
    const w = { dataLayer: [] as unknown[] };
    expect(pushConversion('signup', 'https://ads.example/tag.js', w)).toBe(true);
    expect(pushConversion('lead', 'https://ads.example/tag.js', w)).toBe(true);
    expect(w.dataLayer).toEqual([
      { event: 'signup_conversion', conversion: 'signup', eventId: 1912368 },
      { event: 'lead_conversion', conversion: 'lead', eventId: 1912368 },
    ]);
  });

  it('does nothing without a configured pixel or when its queue is absent', () => {
    const w = { dataLayer: [] as unknown[] };
    expect(pushConversion('signup', null, w)).toBe(false);
    expect(w.dataLayer).toEqual([]);
    expect(pushConversion('signup', 'https://ads.example/tag.js', {})).toBe(false);
  });
});
