import { describe, expect, it } from 'vitest';
import { findUnsafeText, isSafeText, MAX_INPUT_DEPTH } from './text-safety';

describe('text safety', () => {
  it('accepts ordinary text, accents, emoji, tabs and line breaks', () => {
    for (const s of ['Zoë O’Hara', '東京', '👍🏽 ok', 'line\nbreak\r\n\tand tab', ''])
      expect(isSafeText(s)).toBe(true);
  });

  it('refuses NUL, other control characters and lone surrogates', () => {
    for (const s of ['a\u0000b', '\u0007', 'x\u001By', '\u007F', '\uD800', 'a\uDC00', '\uD83D']) {
      expect(isSafeText(s), JSON.stringify(s)).toBe(false);
    }
  });

  it('names the first offending field, in nested objects and arrays, keys included', () => {
    expect(findUnsafeText({ firstName: 'Jane', email: 'a\u0000@b.c' })).toEqual({
      field: 'email',
      message: 'email contains characters that are not allowed',
    });
    expect(findUnsafeText({ ids: ['a', 'b', '\uD800'] })?.field).toBe('ids.2');
    expect(findUnsafeText({ 'bad\u0000key': 1 })?.message).toBe(
      'A field name contains characters that are not allowed',
    );
    expect(findUnsafeText('\u0000')?.field).toBe('body');
    expect(findUnsafeText({ a: 1, b: true, c: null, d: [1, 2] })).toBeNull();
  });

  it('refuses input nested deeper than the limit', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(findUnsafeText({ firstName: deep })?.message).toMatch(/nested too deeply/);
    let ok: unknown = 'x';
    for (let i = 0; i < MAX_INPUT_DEPTH - 2; i++) ok = [ok];
    expect(findUnsafeText({ a: ok })).toBeNull();
  });
});
