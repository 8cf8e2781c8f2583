import { Badge, Button, Code, Stack, Table, Text } from '@mantine/core';
import type { SaleAttemptView } from '@uf/shared/buyers';
import { Fragment, useId, useState } from 'react';
import { businessClock } from '../../business-clock';
import { LeadPageLink } from '../admin-leads/lead-page-link';
import { attemptReason, latencyWords, outcomeWords, usd } from './buyer-words';

// The posts (and skips) of leads to buyers (issue 34): a buyer's log and a lead's sale timeline. Each row
// opens to the request as it was sent (secrets masked) and the first 8 KB of the buyer's answer.

/** A badge keeps its whole word in a squeezed column. */
const WHOLE_LABEL = { root: { overflow: 'visible', maxWidth: 'none' }, label: { overflow: 'visible' } };

export function OutcomeBadge({ outcome }: { outcome: string }) {
  const words = outcomeWords(outcome);
  return (
    <Badge color={words.color} variant="light" styles={WHOLE_LABEL}>
      {words.label}
    </Badge>
  );
}

type Request = NonNullable<SaleAttemptView['request']>;

/** Text that keeps its line breaks and wraps (never a scrolling box). */
function Block({ children }: { children: string }) {
  return (
    <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
      {children}
    </Code>
  );
}

/** A request as the buyer gets it: method and URL, headers, then the body. */
export function RequestBlock({ request }: { request: Request }) {
  const headers = Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`);
  const text = [`${request.method} ${request.url}`, ...headers, '', request.body ?? ''].join('\n');
  return <Block>{text.trimEnd()}</Block>;
}

/** The request as sent and the answer (its status and first 8 KB). */
export function AttemptExchange({ attempt }: { attempt: SaleAttemptView }) {
  return (
    <Stack gap={6}>
      <Text size="sm" fw={600}>
        Request as sent
      </Text>
      {attempt.request ? (
        <RequestBlock request={attempt.request} />
      ) : (
        <Text size="sm" c="gray.7">
          Nothing was sent{attempt.outcome === 'skipped' ? ': the buyer was passed over.' : '.'}
        </Text>
      )}
      {attempt.request && (
        <>
          <Text size="sm" fw={600}>
            Answer
            {attempt.status !== null ? ` (HTTP ${attempt.status})` : ''}
            {attempt.reference ? ` · buyer's reference ${attempt.reference}` : ''}
          </Text>
          {attempt.response ? (
            <Block>{attempt.response}</Block>
          ) : (
            <Text size="sm" c="gray.7">
              {attempt.outcome === 'sending' ? 'Waiting for the answer.' : 'No answer body.'}
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}

export function AttemptsTable({
  attempts,
  label,
  show,
}: {
  attempts: SaleAttemptView[];
  /** The table's accessible name. */
  label: string;
  /** The buyer's log names the lead; a lead's timeline names the buyer. */
  show: 'lead' | 'buyer';
}) {
  const clock = businessClock();
  const [open, setOpen] = useState<Set<string>>(() => new Set());
  const idBase = useId();
  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    <Table.ScrollContainer minWidth={820}>
      <Table withTableBorder fz="sm" verticalSpacing={6} aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{clock.label('Time')}</Table.Th>
            <Table.Th>{show === 'lead' ? 'Lead' : 'Buyer'}</Table.Th>
            <Table.Th>Outcome</Table.Th>
            <Table.Th>Reason</Table.Th>
            <Table.Th>Price</Table.Th>
            <Table.Th>Latency</Table.Th>
            <Table.Th>HTTP status</Table.Th>
            <Table.Th>Request and answer</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {attempts.map((a) => {
            const isOpen = open.has(a.id);
            const detailId = `${idBase}-${a.id}`;
            return (
              <Fragment key={a.id}>
                <Table.Tr>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{clock.format(a.at)}</Table.Td>
                  <Table.Td>
                    {show === 'buyer' ? (
                      a.buyerName
                    ) : a.test ? (
                      <Badge color="gray" variant="light" styles={WHOLE_LABEL}>
                        Test lead
                      </Badge>
                    ) : a.leadId ? (
                      <LeadPageLink kind={a.leadType ?? 'website'} id={a.leadId} size="sm" ff="monospace">
                        {a.leadId.slice(0, 8)}
                      </LeadPageLink>
                    ) : (
                      '—'
                    )}
                  </Table.Td>
                  <Table.Td>
                    <OutcomeBadge outcome={a.outcome} />
                  </Table.Td>
                  <Table.Td style={{ wordBreak: 'break-word' }}>{attemptReason(a) || '—'}</Table.Td>
                  <Table.Td>{usd(a.price)}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{latencyWords(a.latencyMs)}</Table.Td>
                  <Table.Td>{a.status ?? '—'}</Table.Td>
                  <Table.Td>
                    <Button
                      size="compact-sm"
                      variant="default"
                      aria-expanded={isOpen}
                      aria-controls={isOpen ? detailId : undefined}
                      onClick={() => toggle(a.id)}
                    >
                      {isOpen ? 'Hide' : 'Show'}
                    </Button>
                  </Table.Td>
                </Table.Tr>
                {isOpen && (
                  <Table.Tr id={detailId}>
                    <Table.Td colSpan={8} bg="gray.0">
                      <AttemptExchange attempt={a} />
                    </Table.Td>
                  </Table.Tr>
                )}
              </Fragment>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
