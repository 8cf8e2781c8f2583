import {
  Alert,
  Anchor,
  Badge,
  Blockquote,
  Button,
  Group,
  Loader,
  Modal,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { businessClock } from '../../business-clock';
import { appErrorOf, trpc } from '../../trpc';
import { attributionLabel } from './attribution-labels';
import { saveJson } from './save-file';

// The consent receipt of a website lead (issue 6), opened from the lead's Certification ID: what an
// auditor or a lead buyer asks for — the exact disclosure, when, from where, in which browser.

/** The Certification ID cell: the receipt id, which opens the receipt. */
export function ConsentReceiptLink({ leadId, certificationId }: { leadId: string; certificationId: string }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Anchor
        component="button"
        type="button"
        ff="monospace"
        size="xs"
        onClick={() => setOpened(true)}
        title="View the consent receipt"
      >
        {certificationId}
      </Anchor>
      {opened ? <ConsentReceiptDialog leadId={leadId} onClose={() => setOpened(false)} /> : null}
    </>
  );
}

const yesNo = (v: boolean) => (v ? 'Yes' : 'No');
const orDash = (v: string | null) => v ?? '—';

function ConsentReceiptDialog({ leadId, onClose }: { leadId: string; onClose: () => void }) {
  return (
    <Modal opened onClose={onClose} title="Consent receipt" size="lg">
      {/* Closed by the dialog's own ✕ (named 'Close' by the theme, issue 37) or Escape. */}
      <ConsentReceiptDetails leadId={leadId} />
    </Modal>
  );
}

/** The receipt itself: in its own dialog (from the Certification ID) and in the lead drawer. */
export function ConsentReceiptDetails({ leadId }: { leadId: string }) {
  const receipt = trpc.privacy.consentReceipt.useQuery(
    { id: leadId },
    { staleTime: Number.POSITIVE_INFINITY },
  );
  const r = receipt.data;
  const rows: [string, ReactNode][] = r
    ? [
        [
          'Certification ID',
          <Text key="id" ff="monospace" size="sm">
            {r.id}
          </Text>,
        ],
        ['Recorded at', `${businessClock().formatWithZone(r.createdAt)} (${r.createdAt})`],
        ['Consent given', yesNo(r.consentGiven)],
        ['IP address', orDash(r.ipAddress)],
        ['User agent', orDash(r.userAgent)],
        ['Page URL', orDash(r.pageUrl)],
        ['TrustedForm certificate', orDash(r.trustedFormUrl)],
        ['Global Privacy Control', r.gpc ? 'Sent (do not sell or share)' : 'Not sent'],
        // Where the visit came from, as captured (issue 15), click ids and Meta cookies included (issue 24).
        ...Object.entries(r.attribution ?? {}).map(([key, value]): [string, ReactNode] => [
          attributionLabel(key),
          <Text key={key} ff="monospace" size="xs">
            {value}
          </Text>,
        ]),
        [
          'TCPA',
          <Badge key="tcpa" color={r.tcpaCompliant === 'true' ? 'green' : 'red'} variant="light">
            {r.tcpaCompliant === 'true' ? 'Compliant' : 'Non-Compliant'}
          </Badge>,
        ],
        ['Disclosure version', r.consentText.version],
        [
          'Disclosure SHA-256',
          <Text key="hash" ff="monospace" size="xs">
            {r.consentText.hash}
          </Text>,
        ],
      ]
    : [];
  return (
    <>
      {receipt.isLoading ? (
        <Group justify="center" p="md">
          <Loader size="sm" />
          <Text>Loading receipt...</Text>
        </Group>
      ) : receipt.error ? (
        <Alert color="red" title="Could not load the receipt">
          {appErrorOf(receipt.error)?.message ?? 'Please try again.'}
        </Alert>
      ) : r ? (
        <Stack gap="md">
          <Table withTableBorder withColumnBorders>
            <Table.Tbody>
              {rows.map(([label, value]) => (
                <Table.Tr key={label}>
                  <Table.Th w={200}>{label}</Table.Th>
                  <Table.Td style={{ wordBreak: 'break-word' }}>{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <div>
            <Text fw={600} size="sm" mb={4}>
              Disclosure shown beside the consent checkbox
            </Text>
            <Blockquote p="sm">
              <Text size="sm">{r.consentText.body}</Text>
            </Blockquote>
          </div>
          <Text size="xs" c="dimmed">
            Written in the same transaction as the lead; the database refuses any change to it.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => saveJson(r, `consent-receipt-${r.id}.json`)}>
              Download JSON
            </Button>
          </Group>
        </Stack>
      ) : null}
    </>
  );
}

/** A website lead's receipt in the drawer and on the lead's page, or why there is none. */
export function LeadConsentReceipt({ lead }: { lead: { id: string; certificationId: string | null } }) {
  return lead.certificationId ? (
    <ConsentReceiptDetails leadId={lead.id} />
  ) : (
    <Text c="gray.7">No consent receipt was recorded for this lead.</Text>
  );
}

/** The opted-out and do-not-sell cells: a short badge when set (the column names the flag), a dash otherwise. */
export function OptOutFlag({ value, title, color }: { value: boolean; title: string; color: string }) {
  return value ? (
    <Badge color={color} variant="light" title={title}>
      Yes
    </Badge>
  ) : (
    <>—</>
  );
}
