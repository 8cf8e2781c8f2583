import { Button, Group, Modal, Radio, Stack, Text, TextInput } from '@mantine/core';
import {
  AD_ADJUSTMENT_EXPORTS,
  AD_CONVERSION_COUNT_LABELS,
  AD_CONVERSION_COUNTS,
  AD_CONVERSION_EXPORTS,
  type AdConversionCount,
  type AdPlatform,
  adAdjustmentsFileName,
  adConversionsFileName,
} from '@uf/shared/ad-conversions';
import { ADMIN_TOASTS } from '@uf/shared/admin-messages';
import { useEffect, useState } from 'react';
import { businessClock, businessDaysNote } from '../../business-clock';
import { notifyError, notifySuccess } from '../../notify';
import { downloadCsv } from './download-csv';

// The offline-conversion files for the ad platforms (issue 24, ADR 059), from the header's More actions:
// a range of business days and which leads count, then the platform's import file; and the retractions of
// the leads buyers returned in those days (issue 35 for Google, issue 47 for Microsoft).

/** YYYY-MM-DD of `days` before the date `date` (a calendar date, no time zone involved). */
function daysBefore(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
}

/** The server's message from an answer downloadCsv turned into `status: body`. */
function messageOf(err: unknown): string {
  const text = err instanceof Error ? err.message : '';
  try {
    const body = JSON.parse(text.slice(text.indexOf(':') + 1)) as {
      message?: string;
      fieldErrors?: { message: string }[];
    };
    return body.fieldErrors?.[0]?.message ?? body.message ?? 'Failed to export conversions';
  } catch {
    return 'Failed to export conversions';
  }
}

export function AdConversionsDialog({
  platform,
  onClose,
}: {
  platform: AdPlatform | null;
  onClose: () => void;
}) {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [count, setCount] = useState<AdConversionCount>('accepted');
  const [exporting, setExporting] = useState<'conversions' | 'adjustments' | null>(null);
  // Each opening starts from the last 7 business days, today included.
  useEffect(() => {
    if (!platform) return;
    const today = businessClock().today();
    setFrom(daysBefore(today, 6));
    setTo(today);
  }, [platform]);

  const exportFile = async (file: 'conversions' | 'adjustments') => {
    if (!platform) return;
    setExporting(file);
    try {
      if (file === 'adjustments') {
        await downloadCsv(
          AD_ADJUSTMENT_EXPORTS[platform].path,
          { from, to },
          adAdjustmentsFileName(from, to, platform),
        );
      } else {
        const { path } = AD_CONVERSION_EXPORTS[platform];
        await downloadCsv(path, { from, to, count }, adConversionsFileName(platform, from, to));
      }
      notifySuccess(ADMIN_TOASTS.exportSuccess);
      onClose();
    } catch (err) {
      notifyError(ADMIN_TOASTS.errorTitle, messageOf(err));
    } finally {
      setExporting(null);
    }
  };

  const clickId = platform ? AD_CONVERSION_EXPORTS[platform].clickId : '';
  return (
    <Modal
      opened={platform !== null}
      onClose={onClose}
      title={platform ? AD_CONVERSION_EXPORTS[platform].label : ''}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack gap="sm">
        <Text size="sm">
          The platform's offline-conversion import file: one conversion per website lead of these days whose
          visit came with a {clickId}. A sold lead carries its sale price as its value. Leads that opted out
          or asked not to have their data sold or shared, and leads their buyer returned, are left out.
        </Text>
        <Group grow>
          <TextInput type="date" label="From" value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
          <TextInput type="date" label="To" value={to} onChange={(e) => setTo(e.currentTarget.value)} />
        </Group>
        <Text size="xs" c="dimmed">
          {businessDaysNote()}
        </Text>
        <Radio.Group
          label="Leads that count"
          value={count}
          onChange={(v) => setCount(v === 'sold' ? 'sold' : 'accepted')}
        >
          <Group gap="md" mt={4}>
            {AD_CONVERSION_COUNTS.map((c) => (
              <Radio key={c} value={c} label={AD_CONVERSION_COUNT_LABELS[c]} />
            ))}
          </Group>
        </Radio.Group>
        <Text size="xs" c="dimmed">
          Adjustments: a retraction for each lead whose buyer returned it in these days, for a conversion
          uploaded before the return.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            variant="default"
            onClick={() => void exportFile('adjustments')}
            loading={exporting === 'adjustments'}
          >
            Download adjustments
          </Button>
          <Button onClick={() => void exportFile('conversions')} loading={exporting === 'conversions'}>
            Download CSV
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
