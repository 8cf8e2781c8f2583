import { describe, expect, it } from 'vitest';
import {
  type ChoosableColumn,
  chooseColumn,
  MAX_DEFAULT_COLUMNS,
  parseColumnChoices,
  shownColumns,
} from './column-choice';
import { API_LEAD_COLUMNS, WEBSITE_LEAD_COLUMNS } from './lead-columns';

const keys = (columns: ChoosableColumn[]) => columns.map((c) => c.key);

describe('column choice', () => {
  it('shows at most ten columns by default in both lead tables, the TCPA badge among them', () => {
    const website = shownColumns(WEBSITE_LEAD_COLUMNS, {});
    const api = shownColumns(API_LEAD_COLUMNS, {});
    expect(website.length).toBeLessThanOrEqual(MAX_DEFAULT_COLUMNS);
    expect(api.length).toBeLessThanOrEqual(MAX_DEFAULT_COLUMNS);
    expect(keys(website)).toEqual(
      expect.arrayContaining(['firstName', 'lastName', 'phone', 'tcpaCompliant']),
    );
  });

  it('remembers only what differs from the default, and forgets a choice set back to it', () => {
    const [first, second] = [
      { key: 'a', label: 'A', shownByDefault: true },
      { key: 'b', label: 'B' },
    ];
    let choices = chooseColumn(first, {}, false);
    expect(choices).toEqual({ a: false });
    choices = chooseColumn(second, choices, true);
    expect(shownColumns([first, second], choices)).toEqual([second]);
    expect(chooseColumn(first, choices, true)).toEqual({ b: true });
  });

  it('a column added to the list later appears with its default, without disturbing stored choices', () => {
    const stored = parseColumnChoices(JSON.stringify({ email: false, ipAddress: true }));
    const later = [
      ...WEBSITE_LEAD_COLUMNS,
      { key: 'utmSource', label: 'Source', render: () => null },
      { key: 'channel', label: 'Channel', shownByDefault: true, render: () => null },
    ];
    const shown = keys(shownColumns(later, stored));
    expect(shown).not.toContain('email');
    expect(shown).toContain('ipAddress');
    expect(shown).not.toContain('utmSource');
    expect(shown.at(-1)).toBe('channel');
  });

  it('never hides a column the spec requires on every row', () => {
    const tcpa = WEBSITE_LEAD_COLUMNS.find((c) => c.key === 'tcpaCompliant');
    expect(tcpa?.alwaysShown).toBe(true);
    expect(keys(shownColumns(WEBSITE_LEAD_COLUMNS, { tcpaCompliant: false }))).toContain('tcpaCompliant');
  });

  it('reads a damaged or foreign stored value as no choice', () => {
    expect(parseColumnChoices('not json')).toEqual({});
    expect(parseColumnChoices('[1,2]')).toEqual({});
    expect(parseColumnChoices(JSON.stringify({ a: true, b: 'yes' }))).toEqual({ a: true });
    expect(parseColumnChoices(undefined)).toEqual({});
  });
});
