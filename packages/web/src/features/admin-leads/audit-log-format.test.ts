import { describe, expect, it } from 'vitest';
import { describeAction, describeDetail } from './audit-log-format';

describe('audit log wording', () => {
  it('names known actions in words and shows unknown ones as stored', () => {
    expect(describeAction('admin.sign_in')).toBe('Signed in');
    expect(describeAction('database.backup')).toBe('Backed up the database');
    expect(describeAction('privacy.delete')).toBe("Deleted a person's data");
    expect(describeAction('something.new')).toBe('something.new');
  });

  it('lists the detail as key: value pairs, skipping empty values', () => {
    expect(describeDetail({})).toBe('');
    expect(describeDetail({ filepath: '/app/backups/uf-backup-1.dump' })).toBe(
      'filepath: /app/backups/uf-backup-1.dump',
    );
    expect(
      describeDetail({
        rows: 3,
        filters: { state: 'WY', birthYear: '1941' },
        note: '',
        gone: null,
        none: {},
      }),
    ).toBe('rows: 3; filters: {state: WY, birthYear: 1941}');
    expect(describeDetail({ ids: ['a', 'b'] })).toBe('ids: a, b');
    expect(describeDetail({ ids: ['a', 'b', 'c', 'd', 'e'] })).toBe('ids: 5 items');
  });
});
