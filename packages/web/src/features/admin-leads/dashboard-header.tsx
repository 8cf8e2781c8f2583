import { Button, type ButtonProps, Group, Title } from '@mantine/core';

/** One header button. The dashboard's list lives in dashboardActions(); add a button there. */
export type HeaderAction = {
  key: string;
  label: string;
  onClick: () => void;
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
  onLogout: () => void;
  isRefreshing: boolean;
  isExporting: boolean;
  isBackingUp: boolean;
  isDeleting: boolean;
  isLoggingOut: boolean;
};

/** Spec §2: bulk delete (only with a selection, labelled with the count), Refresh, Export CSV,
 * Backup Database, Analytics, Logout — in that order. */
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
    { key: 'refresh', label: 'Refresh', onClick: h.onRefresh, variant: 'default', loading: h.isRefreshing },
    { key: 'export', label: 'Export CSV', onClick: h.onExport, variant: 'default', loading: h.isExporting },
    {
      key: 'backup',
      label: 'Backup Database',
      onClick: h.onBackup,
      variant: 'default',
      loading: h.isBackingUp,
    },
    { key: 'analytics', label: 'Analytics', onClick: h.onAnalytics, variant: 'default' },
    { key: 'data-requests', label: 'Data Requests', onClick: h.onDataRequests, variant: 'default' },
    { key: 'audit-log', label: 'Audit Log', onClick: h.onAuditLog, variant: 'default' },
    { key: 'logout', label: 'Logout', onClick: h.onLogout, variant: 'outline', loading: h.isLoggingOut },
  );
  return actions;
}

export function DashboardHeader({ title, actions }: { title: string; actions: HeaderAction[] }) {
  return (
    <Group justify="space-between" align="center">
      <Title order={1}>{title}</Title>
      <Group gap="xs">
        {actions.map((a) => (
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
      </Group>
    </Group>
  );
}
