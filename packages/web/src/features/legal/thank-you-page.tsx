import { List, Text } from '@mantine/core';
import { usePageMeta } from '../../page-meta';
import { LegalLayout, LegalSection } from './legal-layout';

export function ThankYouPage() {
  usePageMeta({
    title: 'Thank You',
    description:
      'Thanks for your submission. Next, search your state’s official unclaimed property website for free, and check every state you have lived in.',
  });

  return (
    <LegalLayout title="Thank You!" subtitle="Thanks for your submission. We have received your information.">
      <LegalSection title="What to Do Next">
        <List type="ordered" spacing="sm">
          <List.Item>
            Search your state&apos;s official unclaimed property website. Searching and claiming there is
            always free.
          </List.Item>
          <List.Item>
            Check each state you have lived or worked in. Unclaimed property is usually held by the state of
            your last known address, so search every state where you have had an address.
          </List.Item>
          <List.Item>
            Try your previous names, such as a maiden name, and common misspellings of your name.
          </List.Item>
          <List.Item>
            If you find property in your name, follow the state&apos;s instructions to file a claim directly
            with the state.
          </List.Item>
        </List>
      </LegalSection>

      <LegalSection title="Stay Safe">
        <Text>
          Official state programs never charge a fee to return your money. Be careful with anyone who asks you
          to pay up front to claim unclaimed property. Unclaimed Funds Finder is a private company and is not
          affiliated with any government agency.
        </Text>
      </LegalSection>
    </LegalLayout>
  );
}
