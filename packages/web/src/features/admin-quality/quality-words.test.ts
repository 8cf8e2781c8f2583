import { REASON_CODES } from '@uf/shared/quality';
import { describe, expect, it } from 'vitest';
import { durationWords, reasonsSentence, reasonWords, signalLines } from './quality-words';

describe('lead quality in words', () => {
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
