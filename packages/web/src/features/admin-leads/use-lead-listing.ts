import { useNavigate, useSearch } from '@tanstack/react-router';
import { activeFilters } from '@uf/shared/admin-leads';
import { PAGES } from '@uf/shared/pages';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { type Listing, type ListingRules, readListing, writeListing } from './listing-search';

// What a table lists (filters, page, page size, sort) and which of its rows are selected.
//
// Selection rule (spec §4, "select-all selects every row currently listed"): the table lists one page
// of the filtered leads, so select-all selects the rows of that page. The selection only ever holds
// rows on screen: changing filters, page, page size or sort empties it, so a bulk delete never touches
// a row the admin cannot see.
//
// "Select all N matching" (issue 26): once the whole page is selected, the admin may widen the selection
// to every lead the filters match (`allMatching`); a bulk delete then goes by the filters, with the
// count the admin confirmed. Any change of the listing, or unticking a row, ends it.

export function useLeadListing(rules: ListingRules) {
  const navigate = useNavigate();
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  // The URL holds the listing (issue 15); each change is a new history entry, so Back/Forward move
  // between views.
  const listing = useMemo(() => readListing(search, rules), [search, rules]);
  const { filters, page, pageSize, sort, order } = listing;
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [allMatching, setAllMatching] = useState(false);

  const update = useCallback(
    (change: (l: Listing) => Partial<Listing>) =>
      void navigate({
        to: PAGES.adminLeads,
        search: (prev: Record<string, unknown>) => {
          const current = readListing(prev, rules);
          return writeListing(prev, { ...current, ...change(current) }, rules);
        },
      }),
    [navigate, rules],
  );

  const input = useMemo(
    () => ({ ...activeFilters(filters), page, pageSize, sort, order }),
    [filters, page, pageSize, sort, order],
  );
  const listingKey = JSON.stringify(input);
  // Keyed on the listing itself: a new listing (filters, page, size, sort) starts with no selection.
  useEffect(() => {
    void listingKey;
    setSelected(new Set());
    setAllMatching(false);
  }, [listingKey]);

  const setFilter = useCallback(
    (key: string, value: string) => update((l) => ({ filters: { ...l.filters, [key]: value }, page: 1 })),
    [update],
  );
  const setPage = useCallback((next: number) => update(() => ({ page: next })), [update]);
  const setPageSize = useCallback((size: number) => update(() => ({ pageSize: size, page: 1 })), [update]);
  const toggleSort = useCallback(
    (field: string) =>
      update((l) =>
        field === l.sort
          ? { order: l.order === 'asc' ? 'desc' : 'asc', page: 1 }
          : { sort: field, order: field === 'createdAt' ? 'desc' : 'asc', page: 1 },
      ),
    [update],
  );
  const toggleRow = useCallback((id: string) => {
    setAllMatching(false);
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  const setAllListed = useCallback((ids: string[], on: boolean) => {
    setSelected(on ? new Set(ids) : new Set());
    setAllMatching(false);
  }, []);
  const clearSelection = useCallback(() => {
    setSelected(new Set());
    setAllMatching(false);
  }, []);
  const selectAllMatching = useCallback(() => setAllMatching(true), []);

  return {
    filters,
    setFilter,
    page,
    setPage,
    pageSize,
    setPageSize,
    sort,
    order,
    toggleSort,
    selected,
    toggleRow,
    setAllListed,
    clearSelection,
    /** Every lead the filters match is selected, not only the rows on screen. */
    allMatching,
    selectAllMatching,
    /** The list call's input: active filters only (spec §5), plus paging and sorting. */
    input,
    /** The export's query: the same filters, no paging. */
    exportQuery: activeFilters(filters) as Record<string, string>,
  };
}

export type LeadListing = ReturnType<typeof useLeadListing>;
