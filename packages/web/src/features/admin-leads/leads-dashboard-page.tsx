import { Button, Container, Divider, Group, Stack, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import type { AdPlatform } from '@uf/shared/ad-conversions';
import { ADMIN_TOASTS } from '@uf/shared/admin-messages';
import { ERROR_CODES } from '@uf/shared/errors';
import { useEffect, useState } from 'react';
import { notifyError, notifySuccess } from '../../notify';
import { usePageMeta } from '../../page-meta';
import { appErrorOf, trpc } from '../../trpc';
import { QUALITY_SETTINGS_LINK, REVIEW_QUEUE_LINK } from '../admin-quality/quality-links';
import { ReviewNotice } from '../admin-quality/review-notice';
import { CheckingAuthentication } from '../admin-shell/checking-authentication';
import { AdConversionsDialog } from './ad-conversions-dialog';
import { AuditLogDialog } from './audit-log-dialog';
import { BackupsDialog } from './backups-dialog';
import { ConfirmDialog, type ConfirmRequest } from './confirm-dialog';
import { LeadConsentReceipt } from './consent-receipt';
import { DashboardHeader, dashboardActions } from './dashboard-header';
import { DataRequestDialog } from './data-request-dialog';
import { API_LEAD_COLUMNS, WEBSITE_LEAD_COLUMNS } from './lead-columns';
import { API_FILTER_FIELDS, WEBSITE_FILTER_FIELDS } from './lead-filters';
import { LeadsSection } from './leads-section';
import { useRevenueCard } from './revenue-card';
import { selectionCount, useApiLeads, useWebsiteLeads } from './use-leads';
import { WebhooksDialog } from './webhooks-dialog';

const isUnauthorized = (err: unknown) => appErrorOf(err)?.error === ERROR_CODES.unauthorized;
const mustEnrol = (err: unknown) => appErrorOf(err)?.error === ERROR_CODES.twoFactorSetupRequired;
const fullName = (row: { firstName: string; lastName: string }) => `${row.firstName} ${row.lastName}`;

/** Spec §2 /admin/leads: website leads and the API leads section. */
export function LeadsDashboardPage() {
  usePageMeta({ title: 'Leads Dashboard', description: 'Review, filter, export and delete leads.' });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();
  // Spec §7: the auth check is never answered from cache (stale time 0).
  const session = trpc.adminAuth.me.useQuery(undefined, { staleTime: 0 });
  const [confirm, setConfirm] = useState<ConfirmRequest | null>(null);
  const website = useWebsiteLeads(session.isSuccess, setConfirm);
  const api = useApiLeads(session.isSuccess, setConfirm);
  // Lead buyers (issue 34): net revenue today, over 7 and over 30 days, the row's last card.
  const revenueCard = useRevenueCard(session.isSuccess);
  const backup = trpc.admin.backup.useMutation();
  const logout = trpc.adminAuth.logout.useMutation();
  const [isRefreshing, setRefreshing] = useState(false);
  const [dataRequestsOpen, setDataRequestsOpen] = useState(false);
  const [auditLogOpen, setAuditLogOpen] = useState(false);
  const [backupsOpen, setBackupsOpen] = useState(false);
  const [conversionsFor, setConversionsFor] = useState<AdPlatform | null>(null);
  const [webhooksOpen, setWebhooksOpen] = useState(false);

  // Signed out, or the session ended while the page was open: the admin area's session guard takes the
  // tab to the sign-in page (issue 37); meanwhile the page shows nothing of the old data.
  const signedOut =
    session.isError ||
    [website.list, website.stats, api.list, api.stats].some((q) => isUnauthorized(q.error));
  // ADMIN_REQUIRE_2FA: an admin without two-factor can only reach the enrolment (issue 25).
  const enrolFirst = [website.list, website.stats, api.list, api.stats].some((q) => mustEnrol(q.error));
  useEffect(() => {
    if (enrolFirst) void navigate({ to: '/admin/account', replace: true });
  }, [enrolFirst, navigate]);

  if (!session.isSuccess || signedOut) {
    return <CheckingAuthentication />;
  }

  const refresh = async () => {
    setRefreshing(true);
    try {
      await utils.admin.invalidate();
    } finally {
      setRefreshing(false);
    }
  };
  const createBackup = async () => {
    try {
      const { filepath } = await backup.mutateAsync();
      notifySuccess(ADMIN_TOASTS.backupSuccess, filepath);
    } catch {
      notifyError(ADMIN_TOASTS.errorTitle, ADMIN_TOASTS.backupFailed);
    }
  };
  const signOut = async () => {
    try {
      await logout.mutateAsync();
      queryClient.clear();
      notifySuccess(ADMIN_TOASTS.loggedOut);
      await navigate({ to: '/admin/login' });
    } catch {
      notifyError(ADMIN_TOASTS.errorTitle, ADMIN_TOASTS.logoutFailed);
    }
  };

  const actions = dashboardActions({
    selectedCount: selectionCount(website.listing, website.list.data?.total),
    onBulkDelete: website.actions.askDeleteSelected,
    onRefresh: () => void refresh(),
    onExport: () => void website.actions.exportCsv(),
    onBackup: () => void createBackup(),
    onAnalytics: () => void navigate({ to: '/admin/analytics' }),
    onDataRequests: () => setDataRequestsOpen(true),
    onAuditLog: () => setAuditLogOpen(true),
    onAccount: () => void navigate({ to: '/admin/account' }),
    onBackups: () => setBackupsOpen(true),
    onAdConversions: setConversionsFor,
    onWebhooks: () => setWebhooksOpen(true),
    onReviewQueue: () => void navigate(REVIEW_QUEUE_LINK),
    onQualitySettings: () => void navigate(QUALITY_SETTINGS_LINK),
    // (A literal: the buyers' link module would be one more chunk in the router's preload list, ADR 053.)
    onBuyers: () => void navigate({ to: '/admin/$table/{-$id}', params: { table: 'buyers', id: undefined } }),
    onAdCosts: () => void navigate({ to: '/admin/$table/{-$id}', params: { table: 'costs', id: undefined } }),
    onExperiments: () =>
      void navigate({ to: '/admin/$table/{-$id}', params: { table: 'experiments', id: undefined } }),
    onLogout: () => void signOut(),
    isRefreshing,
    isExporting: website.actions.isExporting,
    isBackingUp: backup.isPending,
    isDeleting: website.actions.isDeleting,
    isLoggingOut: logout.isPending,
  });

  const ws = website.stats.data;
  const as = api.stats.data;
  const apiSelected = selectionCount(api.listing, api.list.data?.total);

  return (
    <Container fluid py="lg" px={{ base: 'sm', md: 'lg' }}>
      <Stack gap="lg">
        <DashboardHeader title="Leads Dashboard" actions={actions} />
        <ReviewNotice />

        <section aria-labelledby="website-leads-heading">
          <Stack gap="lg">
            <Title order={2} id="website-leads-heading">
              Website Leads
            </Title>
            <LeadsSection
              kind="website"
              cards={[
                { label: 'Total Leads', value: ws?.totalLeads },
                { label: 'Daily Leads', value: ws?.dailyLeads },
                { label: 'Weekly Leads', value: ws?.weeklyLeads },
                { label: 'Monthly Leads', value: ws?.monthlyLeads },
                {
                  label: 'Consent Rate',
                  value: ws ? `${ws.consentRate}%` : undefined,
                  // The form cannot be sent without consent, so new leads always count: say what it measures.
                  definition: 'Website leads stored with marketing consent, of all website leads',
                },
                revenueCard,
              ]}
              statsError={website.stats.isError ? ADMIN_TOASTS.fetchStatsFailed : undefined}
              filterTitle="Filters"
              filterFields={WEBSITE_FILTER_FIELDS}
              texts={{
                title: 'Leads Data',
                loading: 'Loading leads...',
                empty: 'No leads found',
                fetchFailed: ADMIN_TOASTS.fetchLeadsFailed,
                rowName: (row) => `lead ${fullName(row)}`,
                drawerTitle: (row) => `Lead ${fullName(row)}`,
              }}
              columnsStorageKey="uf.admin.columns.website-leads"
              columns={WEBSITE_LEAD_COLUMNS}
              drawerExtra={{
                heading: 'Consent receipt',
                render: (row) => <LeadConsentReceipt lead={row} />,
              }}
              leads={website}
            />
          </Stack>
        </section>

        <Divider my="md" />

        <section aria-labelledby="api-leads-heading">
          <Stack gap="lg">
            <Title order={2} id="api-leads-heading">
              API Leads
            </Title>
            <LeadsSection
              kind="api"
              cards={[
                { label: 'Total API Leads', value: as?.totalApiLeads },
                { label: 'Daily API Leads', value: as?.dailyApiLeads },
                { label: 'Weekly API Leads', value: as?.weeklyApiLeads },
                { label: 'Monthly API Leads', value: as?.monthlyApiLeads },
              ]}
              statsError={api.stats.isError ? ADMIN_TOASTS.fetchApiStatsFailed : undefined}
              filterTitle="API Lead Filters"
              filterFields={API_FILTER_FIELDS}
              texts={{
                title: 'API Leads Data',
                loading: 'Loading API leads...',
                empty: 'No API leads found',
                fetchFailed: ADMIN_TOASTS.fetchApiLeadsFailed,
                itemsName: 'API leads',
                rowName: (row) => `API lead ${fullName(row)}`,
                drawerTitle: (row) => `API lead ${fullName(row)}`,
              }}
              columnsStorageKey="uf.admin.columns.api-leads"
              columns={API_LEAD_COLUMNS}
              leads={api}
              tableActions={
                <Group gap="xs">
                  {apiSelected > 0 && (
                    <Button
                      color="red"
                      onClick={api.actions.askDeleteSelected}
                      loading={api.actions.isDeleting}
                    >
                      Delete Selected ({apiSelected.toLocaleString()})
                    </Button>
                  )}
                  <Button
                    variant="default"
                    onClick={() => void api.actions.exportCsv()}
                    loading={api.actions.isExporting}
                  >
                    Export API Leads CSV
                  </Button>
                </Group>
              }
            />
          </Stack>
        </section>
      </Stack>
      <ConfirmDialog request={confirm} onClose={() => setConfirm(null)} />
      <DataRequestDialog opened={dataRequestsOpen} onClose={() => setDataRequestsOpen(false)} />
      <AuditLogDialog opened={auditLogOpen} onClose={() => setAuditLogOpen(false)} />
      <BackupsDialog opened={backupsOpen} onClose={() => setBackupsOpen(false)} />
      <AdConversionsDialog platform={conversionsFor} onClose={() => setConversionsFor(null)} />
      <WebhooksDialog opened={webhooksOpen} onClose={() => setWebhooksOpen(false)} />
    </Container>
  );
}
