import { Button, Group, List, Stack, Table, Text, Title } from '@mantine/core';
import type { LeadQuality } from '@uf/shared/admin-leads';
import { ERROR_CODES } from '@uf/shared/errors';
import { Fragment, useState } from 'react';
import { businessClock } from '../../business-clock';
import { appErrorOf, trpc } from '../../trpc';
import { type LeadKind, LeadPageLink } from '../admin-leads/lead-page-link';
import { deciderWords, signalLines } from './quality-words';
import { useVerdictActions } from './use-verdicts';
import { ReasonList, VerdictBadge } from './verdict-badge';
import { VerdictDialog, type VerdictRequest } from './verdict-dialog';

// The Quality section of a lead's page (issue 33): the verdict, who decided it and when, the rules
// version, each reason in plain words and the signals behind them in readable form (the leads they
// point to linked); Release and Reject, each with an optional note, while the lead is held or rejected.

type QualityLead = {
  id: string;
  firstName: string;
  lastName: string;
  quality?: LeadQuality | null;
  signals?: Record<string, unknown> | null;
};

const VERDICT_SENTENCE = {
  accept: 'Accepted: the lead is delivered.',
  hold: 'Held: the lead waits for your review and is not delivered until released.',
  reject: 'Rejected: the lead is never delivered.',
} as const;

export function LeadQualitySection({ kind, lead }: { kind: LeadKind; lead: QualityLead }) {
  const [request, setRequest] = useState<VerdictRequest | null>(null);
  const verdicts = useVerdictActions(kind, setRequest);
  const quality = lead.quality;
  if (!quality) return <Text c="gray.7">This lead has no quality verdict.</Text>;
  const clock = businessClock();
  const lines = signalLines(lead.signals);
  const canDecide = quality.verdict !== 'accept';
  return (
    <Stack gap="md">
      <Group justify="space-between" align="center" gap="sm">
        <Group gap="sm">
          <VerdictBadge quality={quality} withTooltip={false} />
          <Text size="sm">{VERDICT_SENTENCE[quality.verdict]}</Text>
        </Group>
        {canDecide && (
          <Group gap="xs">
            <Button onClick={() => verdicts.askOne(lead, 'accept')} loading={verdicts.isPending}>
              Release
            </Button>
            <Button
              color="red"
              variant="light"
              onClick={() => verdicts.askOne(lead, 'reject')}
              loading={verdicts.isPending}
            >
              Reject
            </Button>
          </Group>
        )}
      </Group>
      <Table withTableBorder withColumnBorders verticalSpacing={6} fz="sm" aria-label="Verdict">
        <Table.Tbody>
          <Table.Tr>
            <Table.Th w="35%" scope="row">
              Decided by
            </Table.Th>
            <Table.Td>{deciderWords(quality.decidedBy)}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th w="35%" scope="row">
              {clock.label('Decided at')}
            </Table.Th>
            <Table.Td>{quality.decidedAt ? clock.format(quality.decidedAt) : '—'}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th w="35%" scope="row">
              Rules version
            </Table.Th>
            <Table.Td>
              {quality.rulesVersion === 0 ? '0 (stored before lead quality)' : quality.rulesVersion}
            </Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      <div>
        <Title order={3} size="h5" mb={4}>
          Reasons
        </Title>
        <ReasonList reasons={quality.reasons} />
      </div>
      <div>
        <Title order={3} size="h5" mb={4}>
          Signals
        </Title>
        {lines.length === 0 ? (
          <Text size="sm" c="gray.7">
            No signals were recorded for this lead.
          </Text>
        ) : (
          <List size="sm" spacing={2}>
            {lines.map((line) => (
              <List.Item key={line.key}>
                {line.text}
                {line.leadIds?.map((id, i) => (
                  <Fragment key={id}>
                    {i === 0 ? ' ' : ', '}
                    <OtherLeadLink id={id} />
                  </Fragment>
                ))}
              </List.Item>
            ))}
          </List>
        )}
      </div>
      <VerdictDialog request={request} onClose={() => setRequest(null)} />
    </Stack>
  );
}

/**
 * A lead another signal points to (a duplicate, the lead that used the same form token): a website or
 * an API lead, which the id alone does not say. Asked as a website lead first; not one, it is an API lead.
 */
function OtherLeadLink({ id }: { id: string }) {
  const website = trpc.admin.leads.get.useQuery({ id }, { retry: false });
  const isApi = appErrorOf(website.error)?.error === ERROR_CODES.notFound;
  const api = trpc.admin.apiLeads.get.useQuery({ id }, { enabled: isApi, retry: false });
  const found = website.data ?? api.data;
  const kind: LeadKind = isApi ? 'api' : 'website';
  const label = found ? `${found.firstName} ${found.lastName}` : id.slice(0, 8);
  if (website.isPending || (isApi && api.isPending)) {
    return (
      <Text component="span" ff="monospace" size="sm">
        {id.slice(0, 8)}
      </Text>
    );
  }
  if (!found) {
    return (
      <Text component="span" size="sm" title={id}>
        {id.slice(0, 8)} (deleted)
      </Text>
    );
  }
  return (
    <LeadPageLink kind={kind} id={id} size="sm" title={`${kind === 'api' ? 'API lead' : 'Lead'} ${id}`}>
      {label}
      {kind === 'api' ? ' (API lead)' : ''}
    </LeadPageLink>
  );
}
