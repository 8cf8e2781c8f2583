import { describe, expect, it } from 'vitest';
import { displayReferrer, normaliseReferrer, parseReferrerAddress } from './referrer';

describe('displayReferrer (spec §4)', () => {
  it.each(['', 'direct', 'unknown'])('shows %j as is, without a domain', (value) => {
    expect(displayReferrer(value)).toEqual({ text: value, domain: null, title: value });
  });

  it('shows an address of up to 45 characters in full, with its domain without www.', () => {
    const address = 'https://www.google.com/search?q=unclaimed'; // 41 characters
    expect(displayReferrer(address)).toEqual({ text: address, domain: 'google.com', title: address });
  });

  it('counts exactly 45 characters as short enough', () => {
    const address = `https://example.com/${'a'.repeat(25)}`;
    expect(address).toHaveLength(45);
    expect(displayReferrer(address).text).toBe(address);
  });

  it('assumes https when the scheme is missing', () => {
    expect(displayReferrer('www.bing.com/search')).toEqual({
      text: 'www.bing.com/search',
      domain: 'bing.com',
      title: 'www.bing.com/search',
    });
  });

  it('shows host plus path and query when that part is up to 25 characters', () => {
    const address = 'https://www.a-very-long-subdomain.example-news-site.com/story?id=7';
    expect(address.length).toBeGreaterThan(45);
    const shown = displayReferrer(address);
    expect(shown.text).toBe('a-very-long-subdomain.example-news-site.com/story?id=7');
    expect(shown.domain).toBe('a-very-long-subdomain.example-news-site.com');
    expect(shown.title).toBe(address);
  });

  it('keeps a path and query of exactly 25 characters whole, and cuts one of 26', () => {
    const host = `${'sub.'.repeat(6)}example.com`;
    const exact = `/${'p'.repeat(19)}?q=12`;
    expect(exact).toHaveLength(25);
    expect(displayReferrer(`https://${host}${exact}`).text).toBe(`${host}${exact}`);
    const over = `/${'p'.repeat(20)}?q=12`;
    expect(displayReferrer(`https://${host}${over}`).text).toBe(`${host}${over.slice(0, 22)}...`);
  });

  it('cuts a longer path and query to 22 characters followed by ...', () => {
    const address = 'https://www.reddit.com/r/personalfinance/comments/abc123/found_money/?utm_source=share';
    const shown = displayReferrer(address);
    expect(shown.text).toBe('reddit.com/r/personalfinance/com...');
    expect(shown.text).toBe(`reddit.com${'/r/personalfinance/comments'.slice(0, 22)}...`);
    expect(shown.domain).toBe('reddit.com');
    expect(shown.title).toBe(address);
  });

  it('cuts an unparseable address over 45 characters to 42 plus ...', () => {
    const junk = `not a url at all ${'x'.repeat(40)}`;
    expect(displayReferrer(junk)).toEqual({ text: `${junk.slice(0, 42)}...`, domain: null, title: junk });
  });

  it('shows a short unparseable address as is', () => {
    expect(displayReferrer('%%% bad')).toEqual({ text: '%%% bad', domain: null, title: '%%% bad' });
  });
});

describe('normaliseReferrer', () => {
  it('treats empty and direct as direct', () => {
    expect(normaliseReferrer('')).toEqual({ host: 'direct', address: 'direct' });
    expect(normaliseReferrer('  direct ')).toEqual({ host: 'direct', address: 'direct' });
  });

  it('adds the missing scheme and drops www. from the host', () => {
    expect(normaliseReferrer('www.Google.com/search?q=money')).toEqual({
      host: 'google.com',
      address: 'https://google.com/search',
    });
  });

  it('keeps the given scheme, port and path but never the query or fragment', () => {
    expect(normaliseReferrer('http://blog.example.org:8080/post/1?utm=x#top')).toEqual({
      host: 'blog.example.org',
      address: 'http://blog.example.org:8080/post/1',
    });
  });

  it('gives a bare origin the root path, so variants of one site count together', () => {
    const a = normaliseReferrer('https://www.google.com');
    const b = normaliseReferrer('https://google.com/');
    expect(a).toEqual({ host: 'google.com', address: 'https://google.com/' });
    expect(b).toEqual(a);
  });

  it('counts a referral from the site itself as direct, whatever the port or www.', () => {
    expect(normaliseReferrer('https://www.mysite.com/terms', 'mysite.com')).toEqual({
      host: 'direct',
      address: 'direct',
    });
    expect(normaliseReferrer('http://localhost:5173/', 'localhost:3000').host).toBe('direct');
    expect(normaliseReferrer('https://other.com/', 'mysite.com').host).toBe('other.com');
  });

  it('marks what cannot be read as an address as unknown', () => {
    expect(normaliseReferrer('https://')).toEqual({ host: 'unknown', address: 'unknown' });
    expect(normaliseReferrer('about:blank')).toEqual({ host: 'unknown', address: 'unknown' });
  });
});

describe('parseReferrerAddress', () => {
  it('accepts other schemes such as app referrers', () => {
    expect(parseReferrerAddress('android-app://com.google.android.gm/')?.hostname).toBe(
      'com.google.android.gm',
    );
  });
});
