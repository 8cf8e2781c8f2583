import { Anchor, List, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { MAX_MESSAGES_PER_MONTH } from '@uf/shared/constants';
import { usePageMeta } from '../../page-meta';
import { LegalLayout, LegalSection, SupportEmailLink } from './legal-layout';

export function PrivacyNoticePage() {
  usePageMeta({
    title: 'Privacy Notice',
    description:
      'A short summary of the personal information Unclaimed Funds Finder collects, how it is used and shared, and your privacy rights and choices.',
  });

  return (
    <LegalLayout
      title="Privacy Notice"
      subtitle="A short summary of how we handle your personal information."
      showLastUpdated
    >
      <Text>
        This notice summarizes our practices. For full details, read our{' '}
        <Anchor component={Link} to="/privacy" underline="always">
          Privacy Policy
        </Anchor>
        .
      </Text>

      <LegalSection title="What We Collect">
        <List spacing="xs">
          <List.Item>
            Name and contact details: your first and last name and the contact details you give us.
          </List.Item>
          <List.Item>Date of birth: the month, day and year you provide.</List.Item>
          <List.Item>
            Address history: your street address and ZIP code, and any previous addresses you share with us.
          </List.Item>
          <List.Item>E-mail and phone: the e-mail address and phone number you give us.</List.Item>
          <List.Item>
            Technical and consent data: your IP address, browser and device details, and a record of your
            consent to be contacted.
          </List.Item>
        </List>
      </LegalSection>

      <LegalSection title="How We Use It">
        <Text>
          We use your information to direct you to your state&apos;s official unclaimed property website, to
          contact you with your consent, to prevent duplicate or fraudulent submissions, to improve our
          website and to meet our legal obligations.
        </Text>
      </LegalSection>

      <LegalSection title="Who We Share It With">
        <Text>
          We share your information with marketing partners who may contact you about their products and
          services, with service providers who help us run our website and send messages, and with authorities
          when the law requires it.
        </Text>
      </LegalSection>

      <LegalSection title="Your Privacy Rights">
        <Text>You can ask us to:</Text>
        <List spacing="xs">
          <List.Item>access the personal information we hold about you;</List.Item>
          <List.Item>correct information that is wrong or incomplete;</List.Item>
          <List.Item>delete your personal information;</List.Item>
          <List.Item>stop contacting you for marketing (opt out of marketing).</List.Item>
        </List>
        <Text>
          California residents have additional rights, including the right to opt out of the sale or sharing
          of personal information. See{' '}
          <Anchor component={Link} to="/ca-privacy" underline="always">
            California Privacy Rights
          </Anchor>
          .
        </Text>
      </LegalSection>

      <LegalSection title="Marketing Consent">
        <Text>
          By checking the consent box on our form, you agree that Unclaimed Funds Finder and its marketing
          partners may contact you by phone call, text message and e-mail, including through an autodialer and
          pre-recorded voice messages. You may receive up to {MAX_MESSAGES_PER_MONTH} messages a month, and
          message and data rates may apply. Reply STOP to stop and HELP for help. You can also withdraw
          consent at any time on our{' '}
          <Anchor component={Link} to="/unsubscribe" underline="always">
            unsubscribe page
          </Anchor>
          . You do not need to give consent to search official state websites, which are free to use.
        </Text>
      </LegalSection>

      <LegalSection title="Security">
        <Text>
          We protect your information with encrypted connections and access limited to authorized staff. No
          system is completely secure, but we work to keep your information safe.
        </Text>
      </LegalSection>

      <LegalSection title="Contact">
        <Text>
          Questions or privacy requests? E-mail us at <SupportEmailLink />.
        </Text>
      </LegalSection>
    </LegalLayout>
  );
}
