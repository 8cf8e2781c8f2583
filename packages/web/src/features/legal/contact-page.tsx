import { Accordion, Anchor, Paper, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { usePageMeta } from '../../page-meta';
import { LegalLayout, LegalSection, SupportEmailLink } from './legal-layout';

export function ContactPage() {
  usePageMeta({
    title: 'Contact Us',
    description:
      'Contact Unclaimed Funds Finder support by e-mail. We reply within 24-48 hours. Read answers to common questions about our free service.',
  });

  return (
    <LegalLayout title="Contact Us" subtitle="We're here to help with questions about our service.">
      <LegalSection title="E-mail Support">
        <Text>
          E-mail us at <SupportEmailLink /> and we will get back to you within 24-48 hours.
        </Text>
      </LegalSection>

      <LegalSection title="Frequently Asked Questions">
        <Accordion variant="separated" order={3}>
          <Accordion.Item value="free">
            <Accordion.Control>Is this service free?</Accordion.Control>
            <Accordion.Panel>
              <Text>
                Yes. Using our website is free, and searching for and claiming unclaimed property on official
                state websites is free too. You never have to pay a fee to claim money directly from a state.
              </Text>
            </Accordion.Panel>
          </Accordion.Item>
          <Accordion.Item value="government">
            <Accordion.Control>Are you a government agency?</Accordion.Control>
            <Accordion.Panel>
              <Text>
                No. Unclaimed Funds Finder is a privately owned company. We are not affiliated with, endorsed
                by or sponsored by any government agency, and we are not a law firm. We point you to the
                official state websites where you can search and claim.
              </Text>
            </Accordion.Panel>
          </Accordion.Item>
          <Accordion.Item value="stop-messages">
            <Accordion.Control>How do I stop receiving messages?</Accordion.Control>
            <Accordion.Panel>
              <Text>
                Reply STOP to any text message, use the unsubscribe link in any of our e-mails, or enter your
                e-mail address on our{' '}
                <Anchor component={Link} to="/unsubscribe" underline="always">
                  unsubscribe page
                </Anchor>
                . You can also e-mail us. Changes may take up to 48 hours to take effect.
              </Text>
            </Accordion.Panel>
          </Accordion.Item>
          <Accordion.Item value="claim">
            <Accordion.Control>How do I claim money I find?</Accordion.Control>
            <Accordion.Panel>
              <Text>
                Claims are made directly with the state that holds the property. Follow the instructions on
                that state&apos;s official unclaimed property website: you will usually need to fill in a
                claim form and provide proof of your identity and of your address at the time the property was
                reported. Processing times vary by state.
              </Text>
            </Accordion.Panel>
          </Accordion.Item>
        </Accordion>
      </LegalSection>

      <Paper withBorder p="md" radius="md">
        <Text fw={700}>Important notice</Text>
        <Text>
          Unclaimed Funds Finder is a private company and is not affiliated with any government agency.
          Searching and claiming on official state websites is free.
        </Text>
      </Paper>
    </LegalLayout>
  );
}
