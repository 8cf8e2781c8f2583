import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type SortOrder } from '@uf/shared/admin-leads';

// A leads table's listing (filters, page, page size, sort) in the page URL (issue 15): bookmarkable,
// shareable, Back/Forward. Both tables live on one page, so each has a key prefix ('' and 'api_').
// Values are checked against the shared vocabulary (fields, page limits, the filters' own options);
// one the table cannot use falls back to its default instead of sending the API a request it refuses.

export type Listing = {
  filters: Record<string, string>;
  page: number;
  pageSize: number;
  sort: string;
  order: SortOrder;
};

export type ListingRules = {
  prefix: string;
  /** Every filter with its empty value ('' or 'all'). */
  emptyFilters: Record<string, string>;
  /** Allowed values of the filters that are a choice (state, channel…); free text otherwise. */
  choices: Record<string, readonly string[]>;
  sortFields: readonly string[];
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MAX_TEXT = 100;

function wholeNumber(value: unknown, min: number, max: number): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isInteger(n) && n >= min && n <= max ? n : undefined;
}

function filterValue(key: string, raw: unknown, rules: ListingRules): string | undefined {
  if (typeof raw !== 'string' && typeof raw !== 'number') return undefined;
  const value = String(raw);
  const choices = rules.choices[key];
  if (choices) return choices.includes(value) ? value : undefined;
  if (key === 'startDate' || key === 'endDate') return DAY.test(value) ? value : undefined;
  return value.length <= MAX_TEXT ? value : undefined;
}

export function readListing(search: Record<string, unknown>, rules: ListingRules): Listing {
  const p = (key: string) => search[`${rules.prefix}${key}`];
  const filters = { ...rules.emptyFilters };
  for (const key of Object.keys(filters)) {
    const value = filterValue(key, p(key), rules);
    if (value !== undefined) filters[key] = value;
  }
  const sort =
    typeof p('sort') === 'string' && rules.sortFields.includes(p('sort') as string)
      ? (p('sort') as string)
      : 'createdAt';
  const order: SortOrder =
    p('order') === 'asc' || p('order') === 'desc'
      ? (p('order') as SortOrder)
      : sort === 'createdAt'
        ? 'desc'
        : 'asc';
  return {
    filters,
    page: wholeNumber(p('page'), 1, 1_000_000) ?? 1,
    pageSize: wholeNumber(p('pageSize'), 1, MAX_PAGE_SIZE) ?? DEFAULT_PAGE_SIZE,
    sort,
    order,
  };
}

/** The URL's search with this table's keys replaced: defaults are left out, the other table's kept. */
export function writeListing(
  search: Record<string, unknown>,
  listing: Listing,
  rules: ListingRules,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(search)) {
    if (!key.startsWith(rules.prefix) || (rules.prefix === '' && key.startsWith('api_'))) {
      if (typeof value === 'string' || typeof value === 'number') out[key] = String(value);
    }
  }
  const set = (key: string, value: string, fallback: string) => {
    if (value !== fallback) out[`${rules.prefix}${key}`] = value;
  };
  for (const [key, value] of Object.entries(listing.filters)) set(key, value, rules.emptyFilters[key] ?? '');
  set('page', String(listing.page), '1');
  set('pageSize', String(listing.pageSize), String(DEFAULT_PAGE_SIZE));
  set('sort', listing.sort, 'createdAt');
  set('order', listing.order, listing.sort === 'createdAt' ? 'desc' : 'asc');
  return out;
}
