import { Card, SimpleGrid, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export type StatCard = {
  label: string;
  value: string | number | undefined;
  /** What the figure counts, shown under it when the label alone could mislead. */
  definition?: ReactNode;
};

/** The dashboard's number cards; '—' while the numbers load. */
export function StatCards({ cards, error }: { cards: StatCard[]; error?: string }) {
  return (
    <div>
      <SimpleGrid cols={{ base: 2, md: cards.length }} spacing={{ base: 'xs', sm: 'md' }}>
        {cards.map((card) => (
          <Card key={card.label} withBorder padding="md" role="group" aria-label={card.label}>
            <Text size="sm" c="gray.7" fw={500}>
              {card.label}
            </Text>
            <Text fz={28} fw={700} lh={1.3}>
              {card.value === undefined
                ? '—'
                : typeof card.value === 'number'
                  ? card.value.toLocaleString()
                  : card.value}
            </Text>
            {card.definition && (
              <Text size="xs" c="dimmed">
                {card.definition}
              </Text>
            )}
          </Card>
        ))}
      </SimpleGrid>
      {error && (
        <Text c="red.8" size="sm" mt="xs" role="alert">
          {error}
        </Text>
      )}
    </div>
  );
}
