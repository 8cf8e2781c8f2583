import { describe, expect, it } from 'vitest';
import { activeFilters, exportFileName, FILTER_HINTS, filterHint } from './admin-leads';
import {
  apiLeadListSchema,
  bulkDeleteSchema,
  websiteLeadFiltersSchema,
  websiteLeadListSchema,
} from './admin-leads.schema';

describe('admin lead filters', () => {
  it("drops empty values and 'all' (spec §5)", () => {
    expect(
      websiteLeadFiltersSchema.parse({
        state: 'all',
        birthYear: '',
        startDate: '',
        endDate: '',
        consentGiven: 'all',
      }),
    ).toEqual({});
  });

  it('normalises what the query string carries', () => {
    expect(
      websiteLeadFiltersSchema.parse({
        state: ' ca ',
        birthYear: '1970',
        startDate: '2026-02-28',
        endDate: '2026-03-01',
        consentGiven: 'false',
      }),
    ).toEqual({
      state: 'CA',
      birthYear: 1970,
      startDate: '2026-02-28',
      endDate: '2026-03-01',
      consentGiven: false,
    });
  });

  it.each([
    [{ state: 'DC' }, 'state'],
    [{ state: 'California' }, 'state'],
    [{ birthYear: '70' }, 'birthYear'],
    [{ birthYear: '1970.5' }, 'birthYear'],
    [{ startDate: '2026-02-29' }, 'startDate'],
    [{ endDate: '03/01/2026' }, 'endDate'],
    [{ consentGiven: 'yes' }, 'consentGiven'],
  ])('rejects %j', (input, field) => {
    const result = websiteLeadFiltersSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual([field]);
  });

  it('defaults the sort to newest first and leaves paging unset (the REST full list)', () => {
    expect(websiteLeadListSchema.parse({})).toEqual({ sort: 'createdAt', order: 'desc' });
    expect(apiLeadListSchema.parse({ page: '2', pageSize: '25', sort: 'city', order: 'asc' })).toEqual({
      page: 2,
      pageSize: 25,
      sort: 'city',
      order: 'asc',
    });
    // API leads have no email or consent: not sortable, not filterable.
    expect(apiLeadListSchema.safeParse({ sort: 'email' }).success).toBe(false);
    expect(apiLeadListSchema.parse({ consentGiven: 'true' })).toEqual({ sort: 'createdAt', order: 'desc' });
  });

  it('bounds paging', () => {
    expect(websiteLeadListSchema.safeParse({ page: '0' }).success).toBe(false);
    expect(websiteLeadListSchema.safeParse({ pageSize: '1001' }).success).toBe(false);
  });
});

describe('bulk delete input', () => {
  it('takes a non-empty list of UUIDs', () => {
    const id = '0d7f1d1e-5c1b-4c7e-9a4b-0e0b7c6c1a11';
    expect(bulkDeleteSchema.parse({ ids: [id] })).toEqual({ ids: [id] });
    expect(bulkDeleteSchema.safeParse({ ids: [] }).success).toBe(false);
    expect(bulkDeleteSchema.safeParse({ ids: ['1'] }).success).toBe(false);
  });
});

describe('helpers', () => {
  it('keeps only active filter values', () => {
    expect(activeFilters({ state: 'TX', birthYear: 'all', startDate: '', consentGiven: 'true' })).toEqual({
      state: 'TX',
      consentGiven: 'true',
    });
  });

  it('names export files as the spec says', () => {
    expect(exportFileName('website', '2026-11-22')).toBe('website-leads-2026-11-22.csv');
    expect(exportFileName('api', '2026-11-22')).toBe('api-leads-2026-11-22.csv');
  });
});

describe('what the filter card does not send (issue 37)', () => {
  it('a one-letter search and an end date before the start wait, with a hint beside the field', () => {
    const values = { search: 'a', startDate: '2026-05-10', endDate: '2026-05-01', state: 'all' };
    expect(activeFilters(values)).toEqual({ startDate: '2026-05-10' });
    expect(filterHint('search', values)).toBe(FILTER_HINTS.searchTooShort);
    expect(filterHint('endDate', values)).toBe(FILTER_HINTS.rangeInverted);
    expect(activeFilters({ ...values, search: 'ab', endDate: '2026-05-11' })).toEqual({
      search: 'ab',
      startDate: '2026-05-10',
      endDate: '2026-05-11',
    });
  });
});
