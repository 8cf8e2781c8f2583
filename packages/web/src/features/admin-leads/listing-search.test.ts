import { describe, expect, it } from 'vitest';
import { readListing, writeListing } from './listing-search';

const website = {
  prefix: '',
  emptyFilters: { search: '', state: 'all', startDate: '', campaign: '' },
  choices: { state: ['CA', 'NY'] },
  sortFields: ['createdAt', 'lastName'],
};
const api = { ...website, prefix: 'api_' };

describe('listing in the URL', () => {
  it('reads what a bookmarked URL holds, and falls back to defaults for what the table cannot use', () => {
    expect(
      readListing(
        {
          state: 'CA',
          campaign: 'spring',
          page: 3,
          pageSize: '100',
          sort: 'lastName',
          startDate: '2026-11-01',
        },
        website,
      ),
    ).toEqual({
      filters: { search: '', state: 'CA', startDate: '2026-11-01', campaign: 'spring' },
      page: 3,
      pageSize: 100,
      sort: 'lastName',
      order: 'asc',
    });
    expect(
      readListing(
        { state: 'ZZ', page: -1, pageSize: 99999, sort: 'password', startDate: 'yesterday' },
        website,
      ),
    ).toEqual({
      filters: { search: '', state: 'all', startDate: '', campaign: '' },
      page: 1,
      pageSize: 50,
      sort: 'createdAt',
      order: 'desc',
    });
  });

  it('writes only what differs from the defaults, and keeps the other table’s keys', () => {
    const listing = readListing({}, website);
    const search = writeListing(
      { api_state: 'NY', api_page: '2' },
      { ...listing, filters: { ...listing.filters, campaign: 'spring' }, page: 2 },
      website,
    );
    expect(search).toEqual({ api_state: 'NY', api_page: '2', campaign: 'spring', page: '2' });
    expect(readListing(search, api)).toMatchObject({ filters: { state: 'NY' }, page: 2 });
    expect(writeListing(search, readListing({}, api), api)).toEqual({ campaign: 'spring', page: '2' });
  });
});
