import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { visitorIdFor } from './visitor-id';

describe('visitorIdFor', () => {
  const salt = Buffer.alloc(32, 1);
  const otherSalt = Buffer.alloc(32, 2);

  it('is the same for the same salt, address and browser, and a 64-bit integer', () => {
    const id = visitorIdFor(salt, '203.0.113.5', 'UA');
    expect(visitorIdFor(salt, '203.0.113.5', 'UA')).toBe(id);
    expect(BigInt(id) >= -(2n ** 63n) && BigInt(id) < 2n ** 63n).toBe(true);
  });

  it('differs with another address, browser or day’s salt', () => {
    const id = visitorIdFor(salt, '203.0.113.5', 'UA');
    expect(visitorIdFor(salt, '203.0.113.6', 'UA')).not.toBe(id);
    expect(visitorIdFor(salt, '203.0.113.5', 'UA 2')).not.toBe(id);
    expect(visitorIdFor(otherSalt, '203.0.113.5', 'UA')).not.toBe(id);
    // The separator keeps ("1.2.3.4", "5UA") and ("1.2.3.45", "UA") apart.
    expect(visitorIdFor(salt, '1.2.3.4', '5UA')).not.toBe(visitorIdFor(salt, '1.2.3.45', 'UA'));
  });

  it('is the first 8 bytes of SHA-256(salt, 0, IP, 0, user agent): ids stored earlier in the day still match', () => {
    const reference = createHash('sha256')
      .update(salt)
      .update('\0')
      .update('203.0.113.5')
      .update('\0')
      .update('Mozilla/5.0 (é)')
      .digest()
      .readBigInt64BE(0)
      .toString();
    expect(visitorIdFor(salt, '203.0.113.5', 'Mozilla/5.0 (é)')).toBe(reference);
  });
});
