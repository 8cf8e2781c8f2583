import { keepPreviousData } from '@tanstack/react-query';
import type { AdminApiLead, AdminWebsiteLead } from '@uf/shared/admin-leads';
import { API_LEAD_FIELDS, exportFileName, WEBSITE_LEAD_FIELDS } from '@uf/shared/admin-leads';
import { ADMIN_TOASTS } from '@uf/shared/admin-messages';
import { useState } from 'react';
import { businessClock } from '../../business-clock';
import { notifyError, notifySuccess } from '../../notify';
import { notifyProgress } from '../../notify-progress';
import { appErrorOf, trpc } from '../../trpc';
import type { ConfirmRequest } from './confirm-dialog';
import { downloadCsv } from './download-csv';
import { API_FILTER_FIELDS, type FilterField, WEBSITE_FILTER_FIELDS } from './lead-filters';
import type { LeadKind } from './lead-page-link';
import type { ListingRules } from './listing-search';
import { type LeadListing, useLeadListing } from './use-lead-listing';

// The two lead tables' data and actions. Each hook wires one set of typed tRPC calls into the same
// behaviour: list + stats queries, single and bulk delete (confirmed first), CSV export.

const choicesOf = (fields: FilterField[]) =>
  Object.fromEntries(
    fields.flatMap((f) => (f.type === 'select' ? [[f.key, f.options.map((o) => o.value)] as const] : [])),
  );
const emptyOf = (fields: FilterField[]) =>
  Object.fromEntries(fields.map((f) => [f.key, f.type === 'select' ? 'all' : '']));

/** What each table's listing may hold in the URL: its filter fields and options, its sortable fields. */
const WEBSITE_LISTING: ListingRules = {
  prefix: '',
  emptyFilters: emptyOf(WEBSITE_FILTER_FIELDS),
  choices: choicesOf(WEBSITE_FILTER_FIELDS),
  sortFields: WEBSITE_LEAD_FIELDS,
};
const API_LISTING: ListingRules = {
  prefix: 'api_',
  emptyFilters: emptyOf(API_FILTER_FIELDS),
  choices: choicesOf(API_FILTER_FIELDS),
  sortFields: API_LEAD_FIELDS,
};

export type Kind = LeadKind;

const KIND_TEXTS = {
  website: {
    one: 'lead',
    many: 'leads',
    deleted: ADMIN_TOASTS.leadDeleted,
    deleteFailed: ADMIN_TOASTS.deleteFailed,
    bulkFailed: ADMIN_TOASTS.bulkDeleteFailed,
    exportFailed: ADMIN_TOASTS.exportFailed,
    exportPath: '/api/admin/export',
  },
  api: {
    one: 'API lead',
    many: 'API leads',
    deleted: ADMIN_TOASTS.apiLeadDeleted,
    deleteFailed: ADMIN_TOASTS.deleteApiFailed,
    bulkFailed: ADMIN_TOASTS.bulkDeleteApiFailed,
    exportFailed: ADMIN_TOASTS.exportApiFailed,
    exportPath: '/api/admin/export-api-leads',
  },
} as const;

type Row = { id: string; firstName: string; lastName: string };
type Calls = {
  remove(id: string): Promise<unknown>;
  bulkRemove(ids: string[]): Promise<{ deletedCount: number }>;
  /** Every lead the filters match (issue 26), guarded by the count the admin confirmed. */
  removeMatching(filters: Record<string, string>, expectedCount: number): Promise<{ deletedCount: number }>;
  invalidate(): Promise<unknown>;
};

const today = () => businessClock().today();
const plural = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** How many leads the selection holds: the rows ticked, or every matching lead (issue 26). */
export const selectionCount = (listing: LeadListing, total: number | undefined) =>
  listing.allMatching ? (total ?? 0) : listing.selected.size;

/**
 * Spec §2/§8 single delete, wherever it starts (a table row, the lead's page): the confirmation, then
 * 'Lead deleted' / 'API lead deleted', or the server's message / 'Failed to delete lead'. `onDeleted`
 * runs after the toast (the lead's page goes back to the dashboard).
 */
export function deleteOneRequest(
  kind: Kind,
  row: Row,
  calls: Pick<Calls, 'remove' | 'invalidate'>,
  onDeleted?: () => void,
): ConfirmRequest {
  const texts = KIND_TEXTS[kind];
  const deleteOne = async () => {
    try {
      await calls.remove(row.id);
      notifySuccess(texts.deleted);
      onDeleted?.();
      await calls.invalidate();
    } catch (err) {
      notifyError(ADMIN_TOASTS.errorTitle, appErrorOf(err)?.message ?? texts.deleteFailed);
    }
  };
  return {
    title: `Delete ${texts.one}?`,
    message: `${row.firstName} ${row.lastName} will be permanently deleted. This cannot be undone.`,
    confirmLabel: 'Delete',
    onConfirm: () => void deleteOne(),
  };
}

function useLeadActions(
  kind: Kind,
  listing: LeadListing,
  total: number | undefined,
  calls: Calls,
  ask: (r: ConfirmRequest) => void,
) {
  const texts = KIND_TEXTS[kind];
  const [isExporting, setExporting] = useState(false);
  const [isDeleting, setDeleting] = useState(false);

  const deleteSelected = async (matching: { filters: Record<string, string>; count: number } | null) => {
    const ids = [...listing.selected];
    const n = matching ? matching.count : ids.length;
    if (n === 0) return;
    setDeleting(true);
    const progress = notifyProgress(
      ADMIN_TOASTS.bulkDeleteStarted,
      `Deleting ${plural(n, texts.one, texts.many)}`,
    );
    try {
      const { deletedCount } = matching
        ? await calls.removeMatching(matching.filters, matching.count)
        : await calls.bulkRemove(ids);
      listing.clearSelection();
      progress.success(ADMIN_TOASTS.bulkDeleteDone, `${plural(deletedCount, texts.one, texts.many)} deleted`);
      await calls.invalidate();
    } catch (err) {
      progress.error(ADMIN_TOASTS.errorTitle, appErrorOf(err)?.message ?? texts.bulkFailed);
    } finally {
      setDeleting(false);
    }
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadCsv(texts.exportPath, listing.exportQuery, exportFileName(kind, today()));
      notifySuccess(ADMIN_TOASTS.exportSuccess);
    } catch {
      notifyError(ADMIN_TOASTS.errorTitle, texts.exportFailed);
    } finally {
      setExporting(false);
    }
  };

  return {
    isExporting,
    isDeleting,
    exportCsv,
    askDeleteOne: (row: Row) => ask(deleteOneRequest(kind, row, calls)),
    askDeleteSelected: () => {
      if (listing.allMatching) {
        // The filters and the count as the admin sees them now: the server deletes only if N still match.
        const matching = { filters: listing.exportQuery, count: total ?? 0 };
        const n = matching.count;
        ask({
          title: `Delete ${plural(n, texts.one, texts.many)}?`,
          message: `All ${plural(n, texts.one, texts.many)} matching the current filters (not only this page) will be permanently deleted. This cannot be undone.`,
          confirmLabel: `Delete ${n.toLocaleString()}`,
          onConfirm: () => void deleteSelected(matching),
        });
        return;
      }
      const n = listing.selected.size;
      ask({
        title: `Delete ${plural(n, texts.one, texts.many)}?`,
        message: `The ${plural(n, `selected ${texts.one}`, `selected ${texts.many}`)} will be permanently deleted. This cannot be undone.`,
        confirmLabel: `Delete ${n.toLocaleString()}`,
        onConfirm: () => void deleteSelected(null),
      });
    },
  };
}

export function useWebsiteLeads(enabled: boolean, ask: (r: ConfirmRequest) => void) {
  const listing = useLeadListing(WEBSITE_LISTING);
  const utils = trpc.useUtils();
  const list = trpc.admin.leads.list.useQuery(listing.input, { enabled, placeholderData: keepPreviousData });
  const stats = trpc.admin.leads.stats.useQuery(undefined, { enabled });
  const remove = trpc.admin.leads.remove.useMutation();
  const bulkRemove = trpc.admin.leads.bulkRemove.useMutation();
  const removeMatching = trpc.admin.leads.removeMatching.useMutation();
  const actions = useLeadActions(
    'website',
    listing,
    list.data?.total,
    {
      remove: (id) => remove.mutateAsync({ id }),
      bulkRemove: (ids) => bulkRemove.mutateAsync({ ids }),
      removeMatching: (filters, expectedCount) =>
        removeMatching.mutateAsync({ filters: filters as never, expectedCount }),
      invalidate: () => utils.admin.leads.invalidate(),
    },
    ask,
  );
  return { listing, list, stats, actions, rows: list.data?.items as AdminWebsiteLead[] | undefined };
}

export function useApiLeads(enabled: boolean, ask: (r: ConfirmRequest) => void) {
  const listing = useLeadListing(API_LISTING);
  const utils = trpc.useUtils();
  const list = trpc.admin.apiLeads.list.useQuery(listing.input, {
    enabled,
    placeholderData: keepPreviousData,
  });
  const stats = trpc.admin.apiLeads.stats.useQuery(undefined, { enabled });
  const remove = trpc.admin.apiLeads.remove.useMutation();
  const bulkRemove = trpc.admin.apiLeads.bulkRemove.useMutation();
  const removeMatching = trpc.admin.apiLeads.removeMatching.useMutation();
  const actions = useLeadActions(
    'api',
    listing,
    list.data?.total,
    {
      remove: (id) => remove.mutateAsync({ id }),
      bulkRemove: (ids) => bulkRemove.mutateAsync({ ids }),
      removeMatching: (filters, expectedCount) =>
        removeMatching.mutateAsync({ filters: filters as never, expectedCount }),
      invalidate: () => utils.admin.apiLeads.invalidate(),
    },
    ask,
  );
  return { listing, list, stats, actions, rows: list.data?.items as AdminApiLead[] | undefined };
}
