import { Button, type ButtonProps, Group, Loader, Menu, Title } from '@mantine/core';
import { AD_CONVERSION_EXPORTS, AD_PLATFORMS, type AdPlatform } from '@uf/shared/ad-conversions';

/** One header action. The dashboard's list lives in dashboardActions(); add an action there. */
export type HeaderAction = {
  key: string;
  label: string;
  onClick: () => void;
  /** An item of the "More actions" menu (actions the spec does not name); every other action is a button. */
  isInMenu?: boolean;
  color?: ButtonProps['color'];
  variant?: ButtonProps['variant'];
  loading?: boolean;
};

export type DashboardActionHandlers = {
  selectedCount: number;
  onBulkDelete: () => void;
  onRefresh: () => void;
  onExport: () => void;
  onBackup: () => void;
  onAnalytics: () => void;
  /** Data subject requests: look up, export or delete a person's records (issue 6). */
  onDataRequests: () => void;
  /** The audit log of admin actions (issue 7). */
  onAuditLog: () => void;
  /** The admin's own account: two-factor, password, sessions (issue 25). */
  onAccount: () => void;
  /** The backup files: list, download, delete (issue 26). */
  onBackups: () => void;
  /** An ad platform's offline-conversion file (issue 24). */
  onAdConversions: (platform: AdPlatform) => void;
  /** Webhook endpoints and their delivery log (issue 24). */
  onWebhooks: () => void;
  /** Lead quality (issue 33): the held leads to release or reject, and the checks' settings. */
  onReviewQueue: () => void;
  onQualitySettings: () => void;
  /** Lead buyers (issue 34): who each lead is offered to, their log and their figures. */
  onBuyers: () => void;
  /** Ad cost (issue 35): the platforms' cost reports imported, days entered by hand, what was imported. */
  onAdCosts: () => void;
  /** Landing experiments (issue 48): arms served by the server, judged by what a visitor is worth. */
  onExperiments: () => void;
  onLogout: () => void;
  isRefreshing: boolean;
  isExporting: boolean;
  isBackingUp: boolean;
  isDeleting: boolean;
  isLoggingOut: boolean;
};

/** Spec §2: bulk delete (only with a selection, labelled with the count), Refresh, Export CSV,
 * Backup Database, Analytics, Logout — visible buttons in that order, under the spec's labels (issue 27).
 * The actions the spec does not name (Data Requests, Audit Log, Account, Backups, Webhooks) are the "More actions" menu at the end
 * (ADR 054). */
export function dashboardActions(h: DashboardActionHandlers): HeaderAction[] {
  const actions: HeaderAction[] = [];
  if (h.selectedCount > 0) {
    actions.push({
      key: 'bulk-delete',
      label: `Delete Selected (${h.selectedCount.toLocaleString()})`,
      onClick: h.onBulkDelete,
      color: 'red',
      loading: h.isDeleting,
    });
  }
  actions.push(
    { key: 'refresh', label: 'Refresh', onClick: h.onRefresh, loading: h.isRefreshing, variant: 'default' },
    { key: 'export', label: 'Export CSV', onClick: h.onExport, loading: h.isExporting },
    {
      key: 'backup',
      label: 'Backup Database',
      onClick: h.onBackup,
      loading: h.isBackingUp,
      variant: 'default',
    },
    { key: 'analytics', label: 'Analytics', onClick: h.onAnalytics, variant: 'default' },
    { key: 'logout', label: 'Logout', onClick: h.onLogout, loading: h.isLoggingOut, variant: 'default' },
    { key: 'data-requests', label: 'Data Requests', onClick: h.onDataRequests, isInMenu: true },
    { key: 'audit-log', label: 'Audit Log', onClick: h.onAuditLog, isInMenu: true },
    { key: 'account', label: 'Account', onClick: h.onAccount, isInMenu: true },
    { key: 'backups', label: 'Backups', onClick: h.onBackups, isInMenu: true },
    ...AD_PLATFORMS.map((platform) => ({
      key: `${platform}-ads-conversions`,
      label: AD_CONVERSION_EXPORTS[platform].label,
      onClick: () => h.onAdConversions(platform),
      isInMenu: true,
    })),
    { key: 'webhooks', label: 'Webhooks', onClick: h.onWebhooks, isInMenu: true },
    { key: 'review-queue', label: 'Review queue', onClick: h.onReviewQueue, isInMenu: true },
    { key: 'quality-settings', label: 'Quality settings', onClick: h.onQualitySettings, isInMenu: true },
    { key: 'buyers', label: 'Buyers', onClick: h.onBuyers, isInMenu: true },
    { key: 'ad-costs', label: 'Ad costs', onClick: h.onAdCosts, isInMenu: true },
    { key: 'experiments', label: 'Experiments', onClick: h.onExperiments, isInMenu: true },
  );
  return actions;
}

export function DashboardHeader({ title, actions }: { title: string; actions: HeaderAction[] }) {
  const buttons = actions.filter((a) => !a.isInMenu);
  const items = actions.filter((a) => a.isInMenu);
  const isBusy = items.some((a) => a.loading);
  // On a narrow screen the buttons wrap onto more rows (end-aligned under the title); all stay visible.
  return (
    <Group justify="space-between" align="center" gap="sm">
      <Title order={1}>{title}</Title>
      <Group gap="xs" justify="flex-end" wrap="wrap">
        {buttons.map((a) => (
          <Button
            key={a.key}
            onClick={a.onClick}
            color={a.color}
            variant={a.variant ?? 'filled'}
            loading={a.loading}
          >
            {a.label}
          </Button>
        ))}
        {items.length > 0 && (
          <Menu
            position="bottom-end"
            shadow="md"
            // Rendered at the end of the page's main landmark (not of <body>, outside every landmark, nor
            // inside a card that would clip it), without Mantine's focusable placeholder, which a menu
            // may not contain.
            portalProps={{ target: 'main' }}
            withInitialFocusPlaceholder={false}
          >
            <Menu.Target>
              <Button
                variant="default"
                rightSection={isBusy ? <Loader size={14} /> : <span aria-hidden="true">▾</span>}
              >
                More actions
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {items.map((a) => (
                <Menu.Item
                  key={a.key}
                  onClick={a.onClick}
                  color={a.color}
                  disabled={a.loading}
                  rightSection={a.loading ? <Loader size={14} /> : undefined}
                >
                  {a.label}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>
    </Group>
  );
}
