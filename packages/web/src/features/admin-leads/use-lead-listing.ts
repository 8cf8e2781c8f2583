import { activeFilters, DEFAULT_PAGE_SIZE, type SortOrder } from '@uf/shared/admin-leads';
import { useCallback, useEffect, useMemo, useState } from 'react';

// What a table lists (filters, page, page size, sort) and which of its rows are selected.
//
// Selection rule (spec §4, "select-all selects every row currently listed"): the table lists one page
// of the filtered leads, so select-all selects the rows of that page. The selection only ever holds
// rows on screen: changing filters, page, page size or sort empties it, so a bulk delete never touches
// a row the admin cannot see.

export function useLeadListing(emptyFilters: Record<string, string>) {
  const [filters, setFilters] = useState<Record<string, string>>(emptyFilters);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSizeState] = useState<number>(DEFAULT_PAGE_SIZE);
  const [sort, setSort] = useState('createdAt');
  const [order, setOrder] = useState<SortOrder>('desc');
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());

  const input = useMemo(
    () => ({ ...activeFilters(filters), page, pageSize, sort, order }),
    [filters, page, pageSize, sort, order],
  );
  const listingKey = JSON.stringify(input);
  // Keyed on the listing itself: a new listing (filters, page, size, sort) starts with no selection.
  useEffect(() => setSelected(new Set()), [listingKey]);

  const setFilter = useCallback((key: string, value: string) => {
    setFilters((f) => ({ ...f, [key]: value }));
    setPage(1);
  }, []);
  const setPageSize = useCallback((size: number) => {
    setPageSizeState(size);
    setPage(1);
  }, []);
  const toggleSort = useCallback(
    (field: string) => {
      if (field === sort) setOrder((o) => (o === 'asc' ? 'desc' : 'asc'));
      else {
        setSort(field);
        setOrder(field === 'createdAt' ? 'desc' : 'asc');
      }
      setPage(1);
    },
    [sort],
  );
  const toggleRow = useCallback((id: string) => {
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  const setAllListed = useCallback((ids: string[], on: boolean) => {
    setSelected(on ? new Set(ids) : new Set());
  }, []);
  const clearSelection = useCallback(() => setSelected(new Set()), []);

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
    /** The list call's input: active filters only (spec §5), plus paging and sorting. */
    input,
    /** The export's query: the same filters, no paging. */
    exportQuery: activeFilters(filters) as Record<string, string>,
  };
}

export type LeadListing = ReturnType<typeof useLeadListing>;
