import { describe, expect, it } from 'vitest';
import { isBuyerPagePath, isCostsPagePath, isLeadPagePath, signInPath } from './admin-paths';
import { isPagePath } from './page-paths';

describe('a lead page path (issue 26)', () => {
  it('is /admin/leads/{one segment} or /admin/api-leads/{one segment}, served as a page', () => {
    for (const path of ['/admin/leads/3f2b8c1e-0000-4000-8000-000000000000', '/admin/api-leads/x']) {
      expect(isLeadPagePath(path)).toBe(true);
      expect(isPagePath(path)).toBe(true);
      expect(isPagePath(`${path}/`)).toBe(true);
    }
    expect(isPagePath('/admin/leads')).toBe(true);
  });

  it("also names lead quality's review queue and settings (issue 33), and no other quality path", () => {
    for (const path of ['/admin/quality/review', '/admin/quality/settings']) {
      expect(isLeadPagePath(path)).toBe(true);
      expect(isPagePath(path)).toBe(true);
    }
    for (const path of ['/admin/quality/other', '/admin/quality', '/admin/quality/review/x']) {
      expect(isLeadPagePath(path), path).toBe(false);
    }
  });

  it('also names the buyers screens (issue 34): the list, a new buyer and a buyer', () => {
    for (const path of ['/admin/buyers', '/admin/buyers/new', '/admin/buyers/3f2b8c1e-0000-4000-8000-0000']) {
      expect(isLeadPagePath(path), path).toBe(true);
      expect(isPagePath(path), path).toBe(true);
      expect(isBuyerPagePath(path), path).toBe(true);
    }
    for (const path of ['/admin/buyers/', '/admin/buyers/a/b', '/admin/buyersx', '/admin/buyers/x/log']) {
      expect(isLeadPagePath(path), path).toBe(false);
      expect(isBuyerPagePath(path), path).toBe(false);
    }
    expect(isBuyerPagePath('/admin/leads/x')).toBe(false);
  });

  it('also names the ad costs screen (issue 35), and nothing under it', () => {
    expect(isLeadPagePath('/admin/costs')).toBe(true);
    expect(isPagePath('/admin/costs')).toBe(true);
    expect(isPagePath('/admin/costs/')).toBe(true);
    expect(isCostsPagePath('/admin/costs')).toBe(true);
    expect(signInPath('/admin/costs', false)).toBe('/admin/login?next=%2Fadmin%2Fcosts');
    for (const path of ['/admin/costs/x', '/admin/costsx', '/admin/cost']) {
      expect(isLeadPagePath(path), path).toBe(false);
      expect(isCostsPagePath(path), path).toBe(false);
    }
    expect(isBuyerPagePath('/admin/costs')).toBe(false);
  });

  it('is nothing else: sign-in never sends the admin anywhere else (no open redirect)', () => {
    for (const path of [
      '/admin/leads/',
      '/admin/leads/a/b',
      '//evil.example/admin/leads/x',
      'https://evil.example/admin/leads/x',
      '/admin/analytics/x',
      '/admin/leadsx/y',
    ]) {
      expect(isLeadPagePath(path), path).toBe(false);
    }
    expect(isPagePath('/admin/leads/a/b')).toBe(false);
  });
});
