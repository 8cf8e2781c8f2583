import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { brotliWithTail, compressHead, gzipWithTail } from './compressed-document';

const page = (n: number) =>
  `<!doctype html><html><head><title>Landing</title></head><body>${'<p>Find unclaimed money — ünïcödé</p>'.repeat(n)}`;

describe('a compressed head with a tail of its own per answer', () => {
  it.each([0, 1, 50, 5000])('decodes to head + tail in gzip and Brotli (%i paragraphs)', (n) => {
    const head = compressHead(page(n));
    for (const tail of [
      'x',
      `<input type="hidden" name="formToken" value="${randomBytes(40).toString('base64url')}"></body></html>`,
    ]) {
      expect(gunzipSync(gzipWithTail(head, tail)).toString('utf8')).toBe(page(n) + tail);
      expect(brotliDecompressSync(brotliWithTail(head, tail)).toString('utf8')).toBe(page(n) + tail);
    }
  });

  it('keeps the head compressed: a 200 kB page costs about what it costs compressed whole', () => {
    const head = compressHead(page(5000));
    const tail = '</body></html>';
    expect(brotliWithTail(head, tail).length).toBeLessThan(2_000);
    expect(gzipWithTail(head, tail).length).toBeLessThan(4_000);
  });

  it('refuses an empty tail or one larger than a stored block', () => {
    const head = compressHead(page(1));
    expect(() => gzipWithTail(head, '')).toThrow();
    expect(() => brotliWithTail(head, 'x'.repeat(70_000))).toThrow();
  });
});
