import { SKIP_REASONS } from '@uf/shared/buyers';
import { describe, expect, it } from 'vitest';
import {
  attemptReason,
  capsHelp,
  capUseWords,
  crossesMidnight,
  latencyWords,
  leadIdOf,
  openingWords,
  outcomeWords,
  saleSentence,
  skipReasonWords,
  usd,
} from './buyer-words';

describe('lead buyers in words', () => {
  it('says whether a buyer is open now, or until when it is closed, in its own zone (issue 49)', () => {
    expect(openingWords({ openNow: true, opensAt: null })).toBe('Open now');
    const chicago = { timeZone: 'America/Chicago', windows: [] };
    // Mon 2026-11-23 15:00Z is 9:00 AM in Chicago (CST), 10:00 AM in New York.
    expect(openingWords({ openNow: false, opensAt: '2026-11-23T15:00:00.000Z', schedule: chicago })).toBe(
      'Closed until Mon 9:00 AM CT',
    );
    expect(openingWords({ openNow: false, opensAt: null, schedule: chicago })).toBe('Closed: no hours open');
  });

  it("names the clock a buyer's caps count in, the business zone for a buyer without hours (issue 49)", () => {
    const help = capsHelp({ zone: 'ET', timeZone: 'America/New_York' });
    expect(help).toContain("in the time zone of the buyer's hours");
    expect(help).toContain(
      'a buyer without hours counts them in the business time zone, ET (America/New_York)',
    );
  });

  it('writes money as USD', () => {
    expect(usd(8.5)).toBe('$8.50');
    expect(usd(1234.5)).toBe('$1,234.50');
    expect(usd(0)).toBe('$0.00');
    expect(usd(null)).toBe('—');
  });

  it('says every skip reason code in words, and an unknown code as it is', () => {
    for (const code of SKIP_REASONS) expect(skipReasonWords(code)).not.toBe(code);
    expect(skipReasonWords('closed')).toBe("outside the buyer's hours");
    expect(skipReasonWords('cap_day')).toBe("the buyer's daily cap was reached");
    expect(skipReasonWords('something_new')).toBe('something_new');
    expect(attemptReason({ outcome: 'skipped', reason: 'filter_state' })).toBe(
      "Skipped: the lead's state is not one the buyer takes",
    );
    expect(attemptReason({ outcome: 'rejected', reason: 'Over cap' })).toBe('Over cap');
    expect(outcomeWords('accepted')).toEqual({ label: 'Accepted', color: 'green' });
    expect(outcomeWords('later')).toEqual({ label: 'later', color: 'gray' });
  });

  it('says cap use and latency', () => {
    expect(capUseWords({ period: 'day', leads: 10, usedLeads: 7, usedAmount: 59.5 })).toBe('7 / 10 today');
    expect(capUseWords({ period: 'week', amount: 100, usedLeads: 3, usedAmount: 25 })).toBe(
      '$25.00 / $100.00 this week',
    );
    expect(capUseWords({ period: 'total', leads: 5, amount: 50, usedLeads: 1, usedAmount: 8.5 })).toBe(
      '1 / 5 and $8.50 / $50.00 in total',
    );
    expect(latencyWords(120)).toBe('120 ms');
    expect(latencyWords(2400)).toBe('2.4 s');
    expect(latencyWords(null)).toBe('—');
  });

  it('says who settled an unknown outcome, and which way', () => {
    const settled = { by: 'alice', at: '2026-11-29T10:00:00.000Z' };
    expect(attemptReason({ outcome: 'accepted', reason: 'the answer was cut: reset', settled })).toBe(
      'the answer was cut: reset — settled by alice: the buyer took it',
    );
    expect(attemptReason({ outcome: 'rejected', reason: null, settled })).toBe(
      'Unknown outcome — settled by alice: the buyer did not take it',
    );
    expect(attemptReason({ outcome: 'unknown', reason: 'interrupted', settled: null })).toBe('interrupted');
  });

  it("says a lead's sale in a sentence", () => {
    expect(saleSentence({ status: 'sold', buyerName: 'Acme', price: 8.5, attempts: [] })).toBe(
      'Sold to Acme for $8.50',
    );
    expect(saleSentence({ status: 'unsold', attempts: [] })).toMatch(/^Unsold/);
    expect(saleSentence({ status: 'pending', attempts: [] })).toMatch(/^Pending/);
    expect(saleSentence({ status: 'unknown', buyerName: 'Acme', attempts: [] })).toMatch(
      /^Unknown — waiting for settlement with Acme/,
    );
    expect(saleSentence({ status: 'not_for_sale', attempts: [] })).toMatch(/^Not for sale: held/);
  });

  it('finds the lead id in a pasted id or lead page address', () => {
    const id = '3f2b8c1e-0000-4000-8000-00000000abcd';
    expect(leadIdOf(` ${id} `)).toBe(id);
    expect(leadIdOf(`https://site.example/admin/api-leads/${id.toUpperCase()}`)).toBe(id);
    expect(leadIdOf(' not-an-id ')).toBe('not-an-id');
  });

  it('knows a window that crosses midnight', () => {
    expect(crossesMidnight('22:00', '02:00')).toBe(true);
    expect(crossesMidnight('09:00', '17:00')).toBe(false);
    expect(crossesMidnight('9', '1')).toBe(false);
  });
});
