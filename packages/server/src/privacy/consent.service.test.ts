import { CONSENT_TEXT } from '@uf/shared/consent';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../platform/sha256';
import { CURRENT_CONSENT_TEXT, tcpaCompliantFor } from './consent.service';

const complete = {
  consentGiven: true,
  consentTextHash: CURRENT_CONSENT_TEXT.hash,
  ipAddress: '203.0.113.9',
  userAgent: 'Mozilla/5.0',
  pageUrl: 'https://example.org/',
};

describe('tcpaCompliantFor', () => {
  it("is 'true' only with consent and every piece of evidence", () => {
    expect(tcpaCompliantFor(complete)).toBe('true');
    expect(tcpaCompliantFor({ ...complete, consentGiven: false })).toBe('false');
    for (const missing of ['consentTextHash', 'ipAddress', 'userAgent', 'pageUrl'] as const) {
      expect(tcpaCompliantFor({ ...complete, [missing]: null }), missing).toBe('false');
      expect(tcpaCompliantFor({ ...complete, [missing]: '' }), missing).toBe('false');
    }
  });

  it('addresses the disclosure by the SHA-256 of its exact text', () => {
    expect(CURRENT_CONSENT_TEXT.hash).toBe(sha256Hex(CONSENT_TEXT));
    expect(CURRENT_CONSENT_TEXT.hash).toMatch(/^[0-9a-f]{64}$/);
  });
});
