import {
  Button,
  Card,
  Center,
  Checkbox,
  Container,
  Group,
  Loader,
  Pagination,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { keepPreviousData } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import type { AdminApiLead, AdminWebsiteLead } from '@uf/shared/admin-leads';
import { formatPhoneForReading } from '@uf/shared/data-request.schema';
import { type ReactNode, useEffect, useState } from 'react';
import { businessClock } from '../../business-clock';
import { usePageMeta } from '../../page-meta';
import { trpc } from '../../trpc';
import { type LeadKind, LeadPageLink } from '../admin-leads/lead-page-link';
import { CheckingAuthentication } from '../admin-shell/checking-authentication';
import { useAdminSession, useLeaveWhenSignedOut } from './admin-session';
import { QUALITY_SETTINGS_LINK, REVIEW_QUEUE_LINK } from './quality-links';
import { REVIEW_WORDS } from './quality-words';
import { useVerdictActions } from './use-verdicts';
import { ReasonList } from './verdict-badge';
import { VerdictDialog, type VerdictRequest } from './verdict-dialog';

// The review queue (issue 33): the leads the quality rules held, website and API leads each in a tab,
// newest first, each with its reasons in plain words; Release (delivered at once) or Reject per row and
// for the selected rows. The tab and page are in the URL (bookmarkable, Back/Forward), as the
// dashboard's listing is.

const PAGE_SIZE = 50;
const HELD = { verdict: 'hold', sort: 'createdAt', order: 'desc', pageSize: PAGE_SIZE } as const;

const KIND_TEXTS = {
  website: {
    tab: 'Website leads',
    held: 'Held website leads',
    one: 'lead',
    empty: 'No website leads waiting for review',
  },
  api: {
    tab: 'API leads',
    held: 'Held API leads',
    one: 'API lead',
    empty: 'No API leads waiting for review',
  },
} as const;

type Row = (AdminWebsiteLead | AdminApiLead) & { email?: string };

function pageOf(value: unknown): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= 1_000_000 ? n : 1;
}

export function ReviewQueuePage() {
  usePageMeta({
    title: 'Review queue',
    description: 'Leads the quality rules held: release or reject them.',
  });
  const navigate = useNavigate();
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const tab: LeadKind = search.tab === 'api' ? 'api' : 'website';
  const page = pageOf(search.page);
  const session = useAdminSession();
  const enabled = session.isSuccess;
  const utils = trpc.useUtils();
  const website = trpc.admin.leads.list.useQuery(
    { ...HELD, page: tab === 'website' ? page : 1 },
    { enabled, placeholderData: keepPreviousData, staleTime: 0 },
  );
  const api = trpc.admin.apiLeads.list.useQuery(
    { ...HELD, page: tab === 'api' ? page : 1 },
    { enabled, placeholderData: keepPreviousData, staleTime: 0 },
  );
  const { signedOut } = useLeaveWhenSignedOut(session, [session.error, website.error, api.error]);
  const [request, setRequest] = useState<VerdictRequest | null>(null);
  const [isRefreshing, setRefreshing] = useState(false);

  if (!session.isSuccess || signedOut) return <CheckingAuthentication />;

  const go = (next: { tab?: LeadKind; page?: number }) => {
    const nextTab = next.tab ?? tab;
    const nextPage = next.page ?? 1;
    void navigate({
      ...REVIEW_QUEUE_LINK,
      search: {
        ...(nextTab === 'api' ? { tab: 'api' } : {}),
        ...(nextPage > 1 ? { page: String(nextPage) } : {}),
      },
    });
  };
  const refresh = async () => {
    setRefreshing(true);
    try {
      await Promise.all([utils.admin.leads.list.invalidate(), utils.admin.apiLeads.list.invalidate()]);
    } finally {
      setRefreshing(false);
    }
  };

  const websiteTotal = website.data?.total;
  const apiTotal = api.data?.total;
  const total = (websiteTotal ?? 0) + (apiTotal ?? 0);
  const counted = websiteTotal !== undefined && apiTotal !== undefined;
  const count = (n: number | undefined) => (n === undefined ? '…' : n.toLocaleString());

  return (
    <Container fluid py="lg" px={{ base: 'sm', md: 'lg' }}>
      <Stack gap="lg">
        <Group justify="space-between" align="center" gap="sm">
          <Title order={1}>Review queue</Title>
          <Group gap="xs" justify="flex-end">
            <Button variant="default" onClick={() => void refresh()} loading={isRefreshing}>
              Refresh
            </Button>
            <Button variant="default" renderRoot={(props) => <Link {...props} {...QUALITY_SETTINGS_LINK} />}>
              Quality settings
            </Button>
            <Button variant="default" renderRoot={(props) => <Link {...props} to="/admin/leads" />}>
              Back to Leads
            </Button>
          </Group>
        </Group>
        <Text c="gray.7" maw={900}>
          Leads the quality rules held, newest first. {REVIEW_WORDS.intro} Either is recorded in the audit log
          with your name.
        </Text>
        <Text fw={600} role="status">
          {!counted
            ? 'Counting the leads waiting for review...'
            : total === 0
              ? 'No leads waiting for review'
              : `${total.toLocaleString()} ${total === 1 ? 'lead' : 'leads'} waiting for review: ${count(websiteTotal)} website, ${count(apiTotal)} API`}
        </Text>
        <Tabs value={tab} onChange={(value) => go({ tab: value === 'api' ? 'api' : 'website' })}>
          <Tabs.List>
            <Tabs.Tab value="website">
              {KIND_TEXTS.website.tab} ({count(websiteTotal)})
            </Tabs.Tab>
            <Tabs.Tab value="api">
              {KIND_TEXTS.api.tab} ({count(apiTotal)})
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="website" pt="md">
            {tab === 'website' && (
              <HeldLeads
                kind="website"
                query={website}
                page={page}
                onPage={(p) => go({ page: p })}
                ask={setRequest}
              />
            )}
          </Tabs.Panel>
          <Tabs.Panel value="api" pt="md">
            {tab === 'api' && (
              <HeldLeads
                kind="api"
                query={api}
                page={page}
                onPage={(p) => go({ page: p })}
                ask={setRequest}
              />
            )}
          </Tabs.Panel>
        </Tabs>
      </Stack>
      <VerdictDialog request={request} onClose={() => setRequest(null)} />
    </Container>
  );
}

type ListQuery = {
  data?: { items: unknown[]; total: number };
  isPending: boolean;
  isError: boolean;
  isPlaceholderData: boolean;
};

function HeldLeads({
  kind,
  query,
  page,
  onPage,
  ask,
}: {
  kind: LeadKind;
  query: ListQuery;
  page: number;
  onPage: (page: number) => void;
  ask: (request: VerdictRequest) => void;
}) {
  const texts = KIND_TEXTS[kind];
  const verdicts = useVerdictActions(kind, ask);
  const rows = (query.data?.items ?? []) as Row[];
  const total = query.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  // The selection only ever holds rows on screen: a new page or a changed list starts without one.
  const listedKey = rows.map((r) => r.id).join(',');
  useEffect(() => {
    void listedKey;
    setSelected(new Set());
  }, [listedKey]);
  // Past the last page (its leads were just released or rejected): the last page there is.
  const isPastEnd = query.data !== undefined && !query.isPlaceholderData && page > pages;
  useEffect(() => {
    if (isPastEnd) onPage(pages);
  }, [isPastEnd, pages, onPage]);
  const listedIds = rows.map((r) => r.id);
  const selectedIds = listedIds.filter((id) => selected.has(id));
  const allSelected = rows.length > 0 && selectedIds.length === rows.length;
  const clock = businessClock();
  const nameOf = (row: Row) => `${texts.one} ${row.firstName} ${row.lastName}`;
  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  let body: ReactNode;
  if (query.isPending) {
    body = (
      <Center py="xl">
        <Group gap="sm">
          <Loader size="sm" />
          <Text>Loading held leads...</Text>
        </Group>
      </Center>
    );
  } else if (query.isError) {
    body = (
      <Text c="red.8" py="xl" ta="center" role="alert">
        Failed to load the review queue
      </Text>
    );
  } else if (rows.length === 0) {
    body = (
      <Stack align="center" gap={4} py="xl">
        <Text fw={600}>{texts.empty}</Text>
        <Text c="gray.7" size="sm">
          Leads the rules hold appear here, newest first.
        </Text>
      </Stack>
    );
  } else {
    body = (
      <Table.ScrollContainer minWidth={900}>
        <Table striped verticalSpacing="xs" fz="sm" aria-label={texts.held}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={40}>
                <Checkbox
                  aria-label="Select all listed leads"
                  checked={allSelected}
                  indeterminate={selectedIds.length > 0 && !allSelected}
                  onChange={() => setSelected(allSelected ? new Set() : new Set(listedIds))}
                />
              </Table.Th>
              <Table.Th>Name</Table.Th>
              <Table.Th>{kind === 'website' ? 'Email and phone' : 'Phone'}</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th style={{ whiteSpace: 'nowrap' }}>{clock.label('Received')}</Table.Th>
              <Table.Th>Why it was held</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr
                key={row.id}
                bg={selected.has(row.id) ? 'var(--mantine-color-blue-light)' : undefined}
              >
                <Table.Td>
                  <Checkbox
                    aria-label={`Select ${nameOf(row)}`}
                    checked={selected.has(row.id)}
                    onChange={() => toggle(row.id)}
                  />
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <LeadPageLink
                    kind={kind}
                    id={row.id}
                    size="sm"
                    title="The lead's own page: fields and signals"
                  >
                    {row.firstName} {row.lastName}
                  </LeadPageLink>
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  {row.email ? <div>{row.email}</div> : null}
                  <div>{formatPhoneForReading(row.phone)}</div>
                </Table.Td>
                <Table.Td>{row.state ?? '—'}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{clock.formatShort(row.createdAt)}</Table.Td>
                <Table.Td miw={280}>
                  <ReasonList reasons={row.quality?.reasons ?? []} withCodes={false} />
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Button
                      size="compact-sm"
                      aria-label={`Release ${nameOf(row)}`}
                      onClick={() => verdicts.askOne(row, 'accept')}
                    >
                      Release
                    </Button>
                    <Button
                      size="compact-sm"
                      color="red"
                      variant="light"
                      aria-label={`Reject ${nameOf(row)}`}
                      onClick={() => verdicts.askOne(row, 'reject')}
                    >
                      Reject
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  const n = selectedIds.length;
  return (
    <Card withBorder padding="md">
      <Group justify="space-between" mb="sm" gap="sm">
        <Title order={2} size="h4">
          {texts.held} ({total.toLocaleString()})
        </Title>
        {n > 0 && (
          <Group gap="xs">
            <Button
              onClick={() => verdicts.askMany(selectedIds, 'accept', () => setSelected(new Set()))}
              loading={verdicts.isPending}
            >
              Release selected ({n.toLocaleString()})
            </Button>
            <Button
              color="red"
              variant="light"
              onClick={() => verdicts.askMany(selectedIds, 'reject', () => setSelected(new Set()))}
              loading={verdicts.isPending}
            >
              Reject selected ({n.toLocaleString()})
            </Button>
          </Group>
        )}
      </Group>
      {total > rows.length && rows.length > 0 && (
        <Text size="sm" c="gray.7" mb="sm">
          Showing {((page - 1) * PAGE_SIZE + 1).toLocaleString()}–
          {((page - 1) * PAGE_SIZE + rows.length).toLocaleString()} of {total.toLocaleString()}, newest first.
          The selection applies to this page.
        </Text>
      )}
      {body}
      {pages > 1 && (
        <Group justify="flex-end" mt="md">
          <Pagination
            total={pages}
            value={Math.min(page, pages)}
            onChange={onPage}
            getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          />
        </Group>
      )}
    </Card>
  );
}
