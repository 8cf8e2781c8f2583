import { REASON_CODES } from '@uf/shared/quality';
import { describe, expect, it } from 'vitest';
import { durationWords, REVIEW_WORDS, reasonsSentence, reasonWords, signalLines } from './quality-words';

describe('lead quality in words', () => {
  it('says where Release sends a lead — buyers and webhooks — and never contradicts itself on Reject (issue 49)', () => {
    const texts = [
      REVIEW_WORDS.intro,
      REVIEW_WORDS.release('It', 'is'),
      REVIEW_WORDS.release('The selected leads', 'are'),
      REVIEW_WORDS.reject('It', 'it'),
      REVIEW_WORDS.reject('The selected leads', 'them'),
      REVIEW_WORDS.released('Ana Ruiz'),
      REVIEW_WORDS.rejected('Ana Ruiz'),
      REVIEW_WORDS.releasedMany('2 leads', 2),
    ];
    for (const text of texts) {
      expect(text).toMatch(/buyers/);
      expect(text).toMatch(/webhook endpoints/);
      // "never … sent" and "you can release it later" cannot both be true.
      expect(text).not.toMatch(/\bnever\b|\bever\b/);
    }
    expect(REVIEW_WORDS.reject('It', 'it')).toMatch(/You can release it later/);
    expect(REVIEW_WORDS.release('The selected leads', 'are')).toMatch(/^The selected leads are offered/);
  });

  it('says every reason code in plain words, and an unknown code as it is', () => {
    for (const code of REASON_CODES) expect(reasonWords(code)).not.toBe(code);
    expect(reasonWords('EMAIL_TYPO')).toBe('The e-mail domain looks like a typo of a major provider');
    expect(reasonWords('SOMETHING_NEW')).toBe('SOMETHING_NEW');
    expect(reasonsSentence([])).toBe('No check found anything');
  });

  it('says durations the way people read them', () => {
    expect(durationWords(2.4)).toBe('2 s');
    expect(durationWords(95)).toBe('1 min 35 s');
    expect(durationWords(120)).toBe('2 min');
    expect(durationWords(7300)).toBe('2 h 1 min');
  });

  it('turns the raw signals into sentences, with the leads they point to', () => {
    const lines = signalLines({
      token: 'missing',
      secondsToSubmit: 2,
      honeypot: false,
      automation: true,
      userAgent: 'browser',
      emailSuggestion: 'jane@gmail.com',
      duplicatePhoneIds: ['11111111-1111-4111-8111-111111111111'],
      ipLast10Minutes: 1,
      ipLast24Hours: 4,
      somethingNew: { a: 1 },
    });
    expect(lines.map((l) => l.text)).toEqual([
      'Submitted 2 s after the page was served',
      'Form token: missing (the page with the form was never loaded)',
      'Hidden field: empty',
      'Browser: an ordinary browser',
      'Automation: the browser said it is driven by automation (navigator.webdriver)',
      'E-mail: did you mean jane@gmail.com?',
      'Same phone as lead',
      '1 earlier lead from the same address in the last 10 minutes',
      '4 earlier leads from the same address in the last 24 hours',
      'somethingNew: {"a":1}',
    ]);
    expect(lines.find((l) => l.key === 'duplicatePhoneIds')?.leadIds).toEqual([
      '11111111-1111-4111-8111-111111111111',
    ]);
    expect(signalLines(null)).toEqual([]);
  });
});
