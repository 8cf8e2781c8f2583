import {
  Alert,
  Anchor,
  Button,
  Center,
  Container,
  Group,
  Loader,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { Link, useLocation, useNavigate } from '@tanstack/react-router';
import type { AdminApiLeadDetail, AdminWebsiteLeadDetail, AuditEntry } from '@uf/shared/admin-leads';
import {
  isBuyerPagePath,
  isCostsPagePath,
  isExperimentPagePath,
  isLeadPagePath,
} from '@uf/shared/admin-paths';
import { ERROR_CODES } from '@uf/shared/errors';
import { lazy, type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import { businessClock } from '../../business-clock';
import { usePageMeta } from '../../page-meta';
import { appErrorOf, trpc } from '../../trpc';
import { LeadQualitySection } from '../admin-quality/lead-quality-section';
import { isQualityPagePath } from '../admin-quality/quality-links';
import { CheckingAuthentication, PageLoading } from '../admin-shell/checking-authentication';
import { NotFoundPage } from '../not-found/not-found-page';
import { ConfirmDialog, type ConfirmRequest } from './confirm-dialog';
import { LeadConsentReceipt } from './consent-receipt';
import { deletionOf, LeadAuditTrail } from './lead-audit-trail';
import { API_LEAD_COLUMNS, type LeadColumn, WEBSITE_LEAD_COLUMNS } from './lead-columns';
import { LeadDeliveries } from './lead-deliveries';
import { LeadFields } from './lead-fields';
import { deleteOneRequest, type Kind } from './use-leads';

// A page per lead (issue 26): /admin/leads/{id} and /admin/api-leads/{id}, the address an admin pastes
// into a support ticket. Every field (the drawer's list), a website lead's attribution and consent
// receipt, the audit entries that concern the lead, and Delete with the spec's confirmation and toasts.
// An unknown, deleted or malformed id is a "not found" state with the way back, never a blank page.

const lastSegment = (path: string) => {
  const segment = path.split('/').pop() ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUnauthorized = (err: unknown) => appErrorOf(err)?.error === ERROR_CODES.unauthorized;
const mustEnrol = (err: unknown) => appErrorOf(err)?.error === ERROR_CODES.twoFactorSetupRequired;
/** The server knows no such lead, or refuses the id: either way there is no lead to show. */
const isMissing = (err: unknown) =>
  appErrorOf(err)?.error === ERROR_CODES.notFound || appErrorOf(err)?.error === ERROR_CODES.validation;

const KIND_WORDS = {
  website: { one: 'Lead', notFound: 'Lead not found' },
  api: { one: 'API lead', notFound: 'API lead not found' },
} as const;

/** Attribution of a website lead: the table's channel/source/medium/campaign, then every captured key. */
const ATTRIBUTION_KEYS = ['channel', 'source', 'medium', 'campaign'];
const countryColumn: LeadColumn<AdminWebsiteLeadDetail> = {
  key: 'country',
  label: 'Country',
  render: (r) => r.country ?? '—',
};
const partnerColumn: LeadColumn<AdminApiLeadDetail> = {
  key: 'partner',
  label: 'Partner',
  render: (r) => r.partner ?? '—',
};
const CAPTURED_LABELS: Record<string, string> = { landingReferrer: 'Landing referrer' };

type Query<T> = { data?: T; error: unknown; isPending: boolean; refetch: () => unknown };
type LeadData<T> = {
  lead: Query<T>;
  audit: Query<AuditEntry[]>;
  calls: { remove(id: string): Promise<unknown>; invalidate(): Promise<unknown> };
};

function useWebsiteLead(id: string, enabled: boolean): LeadData<AdminWebsiteLeadDetail> {
  const utils = trpc.useUtils();
  const options = { enabled, staleTime: 0 };
  const lead = trpc.admin.leads.get.useQuery({ id }, options);
  const audit = trpc.admin.leads.auditLog.useQuery({ id }, options);
  const remove = trpc.admin.leads.remove.useMutation();
  return {
    lead: lead as Query<AdminWebsiteLeadDetail>,
    audit,
    calls: {
      remove: (leadId) => remove.mutateAsync({ id: leadId }),
      invalidate: () => utils.admin.leads.invalidate(),
    },
  };
}

function useApiLead(id: string, enabled: boolean): LeadData<AdminApiLeadDetail> {
  const utils = trpc.useUtils();
  const options = { enabled, staleTime: 0 };
  const lead = trpc.admin.apiLeads.get.useQuery({ id }, options);
  const audit = trpc.admin.apiLeads.auditLog.useQuery({ id }, options);
  const remove = trpc.admin.apiLeads.remove.useMutation();
  return {
    lead: lead as Query<AdminApiLeadDetail>,
    audit,
    calls: {
      remove: (leadId) => remove.mutateAsync({ id: leadId }),
      invalidate: () => utils.admin.apiLeads.invalidate(),
    },
  };
}

/** The lead-quality screens (issue 33): their own chunk, loaded when one of them is opened. */
const QualityPages = lazy(() =>
  import('../admin-quality/quality-pages').then((m) => ({ default: m.QualityPages })),
);

/** The lead buyers' screens (issue 34): their own chunk, loaded when one of them is opened. */
const BuyerPages = lazy(() => import('../admin-buyers/buyer-pages').then((m) => ({ default: m.BuyerPages })));

/** The landing experiments' screens (issue 48): their own chunk, loaded when one is opened. */
const ExperimentPages = lazy(() =>
  import('../admin-experiments/experiments-pages').then((m) => ({ default: m.ExperimentPages })),
);

/** The ad costs screen (issue 35): its own chunk, loaded when it is opened. */
const CostsPage = lazy(() => import('../admin-costs/costs-page').then((m) => ({ default: m.CostsPage })));

/**
 * A lead's sale (issue 34): its own chunk, so that the router's preload list for this page stays as it was
 * (ADR 053's budget). Asked for as soon as this page's code runs: it has come by the time the lead has.
 */
const loadSaleSection = () => import('../admin-buyers/lead-sale-section');
const saleSection = typeof window === 'undefined' ? null : loadSaleSection();
const LeadSaleSection = lazy(() =>
  (saleSection ?? loadSaleSection()).then((m) => ({ default: m.LeadSaleSection })),
);

/** /admin/leads/{id} and /admin/api-leads/{id}: one route, one lazy chunk (ADR 060). */
export function LeadPage() {
  // The last lead path the location had: while another page (sign-in) takes over, the location moves on
  // a moment before this page goes, and must not turn it into another lead's page.
  const { pathname } = useLocation();
  const current = pathname.replace(/\/+$/, '');
  const [path, setPath] = useState(current);
  if (current !== path && (isLeadPagePath(current) || isQualityPagePath(current))) setPath(current);
  // /admin/quality/review and /admin/quality/settings come through this route too (router.tsx).
  if (isQualityPagePath(path)) {
    return (
      <Suspense fallback={<CheckingAuthentication />}>
        <QualityPages path={path} />
      </Suspense>
    );
  }
  // /admin/buyers, /admin/buyers/new and /admin/buyers/{id} too (issue 34).
  if (isBuyerPagePath(path)) {
    return (
      <Suspense fallback={<CheckingAuthentication />}>
        <BuyerPages path={path} />
      </Suspense>
    );
  }
  // /admin/experiments, /admin/experiments/new and /admin/experiments/{id} too (issue 48).
  if (isExperimentPagePath(path)) {
    return (
      <Suspense fallback={<CheckingAuthentication />}>
        <ExperimentPages path={path} />
      </Suspense>
    );
  }
  // /admin/costs too (issue 35).
  if (isCostsPagePath(path)) {
    return (
      <Suspense fallback={<CheckingAuthentication />}>
        <CostsPage />
      </Suspense>
    );
  }
  // The route is /admin/$table/{-$id}: a table that is neither is the app's not-found page.
  if (!isLeadPagePath(path)) return <NotFoundPage />;
  return path.startsWith('/admin/api-leads/') ? <ApiLeadPage path={path} /> : <WebsiteLeadPage path={path} />;
}

function WebsiteLeadPage({ path }: { path: string }) {
  return (
    <OneLeadPage
      path={path}
      kind="website"
      useLead={useWebsiteLead}
      columns={WEBSITE_LEAD_COLUMNS.filter((c) => !ATTRIBUTION_KEYS.includes(c.key))}
      omit={['attribution', 'country', ...ATTRIBUTION_KEYS]}
      sections={(lead) => [
        {
          heading: 'Attribution',
          body: <Attribution lead={lead} />,
        },
        { heading: 'Consent receipt', body: <LeadConsentReceipt lead={lead} /> },
      ]}
    />
  );
}

function ApiLeadPage({ path }: { path: string }) {
  return (
    <OneLeadPage
      path={path}
      kind="api"
      useLead={useApiLead}
      columns={[...API_LEAD_COLUMNS, partnerColumn]}
      sections={() => []}
    />
  );
}

function Attribution({ lead }: { lead: AdminWebsiteLeadDetail }) {
  const captured = Object.entries(lead.attribution ?? {});
  return (
    <Stack gap="sm">
      <LeadFields
        row={lead}
        columns={[...WEBSITE_LEAD_COLUMNS.filter((c) => ATTRIBUTION_KEYS.includes(c.key)), countryColumn]}
        withUndescribed={false}
      />
      <Text fw={600} size="sm">
        Captured on the visit (UTM parameters, ad click ids, landing referrer)
      </Text>
      {captured.length === 0 ? (
        <Text c="gray.7" size="sm">
          Nothing was captured for this visit.
        </Text>
      ) : (
        <Table
          withTableBorder
          withColumnBorders
          verticalSpacing={6}
          fz="sm"
          aria-label="Captured attribution"
        >
          <Table.Tbody>
            {captured.map(([key, value]) => (
              <Table.Tr key={key}>
                <Table.Th w="35%" scope="row" ff={CAPTURED_LABELS[key] ? undefined : 'monospace'}>
                  {CAPTURED_LABELS[key] ?? key}
                </Table.Th>
                <Table.Td style={{ wordBreak: 'break-word' }}>{String(value)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

function Section({ heading, children }: { heading: string; children: ReactNode }) {
  const id = `lead-section-${heading.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section aria-labelledby={id}>
      <Title order={2} size="h4" id={id} mb="sm">
        {heading}
      </Title>
      {children}
    </section>
  );
}

function LoadingLine({ text }: { text: string }) {
  return (
    <Group gap="sm">
      <Loader size="xs" />
      <Text size="sm">{text}</Text>
    </Group>
  );
}

function BackToDashboard() {
  return <Anchor renderRoot={(props) => <Link {...props} to="/admin/leads" />}>Back to the dashboard</Anchor>;
}

function OneLeadPage<T extends { id: string; firstName: string; lastName: string }>({
  path,
  kind,
  useLead,
  columns,
  omit,
  sections,
}: {
  /** The lead's page path, /admin/leads/{id} or /admin/api-leads/{id}. */
  path: string;
  kind: Kind;
  useLead: (id: string, enabled: boolean) => LeadData<T>;
  columns: LeadColumn<T>[];
  omit?: string[];
  sections: (lead: T) => { heading: string; body: ReactNode }[];
}) {
  const words = KIND_WORDS[kind];
  const navigate = useNavigate();
  // The id is the path's last segment (read from the location: the router's useParams would put a shared
  // chunk on the landing page's budget, ADR 060).
  const leadId = lastSegment(path);
  const isValidId = UUID.test(leadId);
  // Spec §7: the auth check is never answered from cache (stale time 0).
  const session = trpc.adminAuth.me.useQuery(undefined, { staleTime: 0 });
  const { lead, audit, calls } = useLead(leadId, session.isSuccess && isValidId);
  const [confirm, setConfirm] = useState<ConfirmRequest | null>(null);
  const row = lead.data;
  usePageMeta({
    title: row ? `${words.one} ${row.firstName} ${row.lastName}` : words.one,
    description: `One ${words.one.toLowerCase()} whole: fields, history and actions.`,
  });

  // Signed out: the admin area's session guard takes the tab through the sign-in page and back here (the
  // pasted link still works, issue 37). (Not while the check runs again: just after sign-in the cached
  // answer is still the signed-out one.)
  const signedOut =
    (session.isError && !session.isFetching) || isUnauthorized(lead.error) || isUnauthorized(audit.error);
  const enrolFirst = mustEnrol(lead.error) || mustEnrol(audit.error);
  // Once: while the account page takes over, this page still renders a moment with the new location.
  const leaving = useRef(false);
  useEffect(() => {
    if (leaving.current || !enrolFirst) return;
    leaving.current = true;
    void navigate({ to: '/admin/account', replace: true });
  }, [enrolFirst, navigate]);

  let body: ReactNode;
  if (!session.isSuccess || signedOut || (isValidId && lead.isPending)) {
    body = session.isSuccess ? <PageLoading label="Loading lead..." /> : <CheckingAuthentication />;
  } else if (!isValidId || isMissing(lead.error)) {
    const deleted = isValidId ? deletionOf(audit.data) : undefined;
    body = (
      <Center mih="50vh">
        <Stack align="center" gap="sm" maw={560} ta="center">
          <Title order={1}>{words.notFound}</Title>
          <Text>
            {isValidId
              ? `No ${words.one.toLowerCase()} has the id ${leadId}: it was deleted, or never existed.`
              : 'This link does not name a lead: the id in it is not valid. Check that it was copied whole.'}
          </Text>
          {deleted ? (
            <Text c="gray.7">
              Deleted by {deleted.actor} on {businessClock().formatWithZone(deleted.createdAt)}.
            </Text>
          ) : null}
          <BackToDashboard />
        </Stack>
      </Center>
    );
  } else if (!row) {
    body = (
      <Alert color="red" title={`Could not load the ${words.one.toLowerCase()}`} maw={560}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{appErrorOf(lead.error)?.message ?? 'Please try again.'}</Text>
          <Button size="xs" variant="default" onClick={() => void lead.refetch()}>
            Retry
          </Button>
        </Stack>
      </Alert>
    );
  } else {
    const name = `${row.firstName} ${row.lastName}`;
    body = (
      <Stack gap="xl">
        <Group justify="space-between" align="flex-end">
          <Stack gap={4}>
            <BackToDashboard />
            <Title order={1}>
              {words.one} {name}
            </Title>
          </Stack>
          <Button
            color="red"
            variant="light"
            onClick={() =>
              setConfirm(
                deleteOneRequest(
                  kind,
                  row,
                  calls,
                  () => void navigate({ to: '/admin/leads', replace: true }),
                ),
              )
            }
          >
            Delete {words.one.toLowerCase()}
          </Button>
        </Group>
        {/* Lead quality (issue 33): the verdict, its reasons and signals, Release / Reject. */}
        <Section heading="Quality">
          <LeadQualitySection kind={kind} lead={row} />
        </Section>
        {/* Lead buyers (issue 34): where the lead was sold, every offer, Return lead. */}
        <Section heading="Sale">
          <Suspense fallback={<LoadingLine text="Loading the sale..." />}>
            <LeadSaleSection
              leadId={row.id}
              leadName={name}
              verdict={(row as { quality?: { verdict: string } | null }).quality?.verdict}
            />
          </Suspense>
        </Section>
        <Section heading="Details">
          <LeadFields
            row={row}
            columns={columns.filter((c) => c.key !== 'quality')}
            omit={[...(omit ?? []), 'quality', 'signals']}
          />
        </Section>
        {sections(row).map((s) => (
          <Section key={s.heading} heading={s.heading}>
            {s.body}
          </Section>
        ))}
        <Section heading="Webhook deliveries">
          <Text size="sm" c="dimmed" mb="xs">
            Where this lead was sent (More actions → Webhooks resends failed deliveries).
          </Text>
          <LeadDeliveries leadId={row.id} />
        </Section>
        <Section heading="Audit trail">
          <Text size="sm" c="dimmed" mb="xs">
            Admin actions that concern this lead, newest first: its data requests and its deletion.
          </Text>
          {audit.data ? (
            <LeadAuditTrail entries={audit.data} />
          ) : audit.error ? (
            <Text c="red.8">Failed to load the audit trail</Text>
          ) : (
            <Group gap="sm">
              <Loader size="xs" />
              <Text size="sm">Loading audit trail...</Text>
            </Group>
          )}
        </Section>
      </Stack>
    );
  }

  return (
    <Container size="lg" py="lg" px={{ base: 'sm', md: 'lg' }}>
      {body}
      <ConfirmDialog request={confirm} onClose={() => setConfirm(null)} />
    </Container>
  );
}
