import { Badge, List, Text, Tooltip } from '@mantine/core';
import type { LeadQuality } from '@uf/shared/admin-leads';
import { reasonsSentence, reasonWords, VERDICT_WORDS } from './quality-words';

// A lead's verdict as a badge (issue 33): Accept green, Hold yellow, Reject red; the reasons in plain
// words in its tooltip. Never shortened ("H…"): the label keeps its width in a squeezed column.

const WHOLE_LABEL = {
  root: { overflow: 'visible', maxWidth: 'none' },
  label: { overflow: 'visible' },
};

export function VerdictBadge({
  quality,
  withTooltip = true,
}: {
  quality: LeadQuality | null | undefined;
  /** In a table cell the reasons show on hover; where they are listed beside it, no tooltip. */
  withTooltip?: boolean;
}) {
  if (!quality) return <>—</>;
  const words = VERDICT_WORDS[quality.verdict];
  const badge = (
    <Badge color={words.color} variant="light" styles={WHOLE_LABEL}>
      {words.badge}
    </Badge>
  );
  if (!withTooltip) return badge;
  return (
    <Tooltip
      label={
        quality.reasons.length > 1
          ? // One reason a line: several in one sentence are hard to tell apart.
            quality.reasons.map((code) => <div key={code}>{reasonWords(code)}</div>)
          : reasonsSentence(quality.reasons)
      }
      multiline
      maw={360}
      withArrow
      // Inside the page's main landmark, like the header's menu (axe: every content in a landmark).
      portalProps={{ target: 'main' }}
    >
      {badge}
    </Tooltip>
  );
}

/** The reasons of a verdict, each in plain words with its code (the code is what the settings name). */
export function ReasonList({
  reasons,
  withCodes = true,
}: {
  reasons: readonly string[];
  withCodes?: boolean;
}) {
  if (reasons.length === 0) return <Text size="sm">No check found anything.</Text>;
  return (
    <List size="sm" spacing={2}>
      {reasons.map((code) => (
        <List.Item key={code}>
          {reasonWords(code)}
          {withCodes && (
            <Text component="span" c="dimmed" size="xs" ff="monospace">
              {' '}
              ({code})
            </Text>
          )}
        </List.Item>
      ))}
    </List>
  );
}
