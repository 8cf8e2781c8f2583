import { Anchor, List, Paper, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { usePageMeta } from '../../page-meta';
import { LegalLayout, LegalSection, SupportEmailLink } from './legal-layout';

const REQUEST_SUBJECT = 'California Privacy Request';

export function CaPrivacyPage() {
  usePageMeta({
    title: 'California Privacy Rights',
    description:
      'California residents: learn your rights to know, delete and opt out of the sale or sharing of your personal information, and how to make a request.',
  });

  return (
    <LegalLayout
      title="California Privacy Rights"
      subtitle="Your rights under California law, including Do Not Sell or Share My Personal Information."
      showLastUpdated
    >
      <Text>
        This page applies to residents of California and supplements our{' '}
        <Anchor component={Link} to="/privacy" underline="always">
          Privacy Policy
        </Anchor>
        . It describes your rights under the California Consumer Privacy Act, as amended by the California
        Privacy Rights Act (together, the &quot;CCPA&quot;), and how to use them.
      </Text>

      <LegalSection title="Your Rights">
        <List spacing="sm">
          <List.Item>
            Right to know: you can ask us what personal information we have collected about you, the
            categories of sources, why we collected it, the categories of third parties we disclose it to, and
            the specific pieces of personal information we hold about you.
          </List.Item>
          <List.Item>
            Right to delete: you can ask us to delete the personal information we collected from you, subject
            to exceptions allowed by law (for example, records we must keep to show that you consented to be
            contacted).
          </List.Item>
          <List.Item>
            Right to opt out of sale or sharing: we share personal information with marketing partners, which
            may be a &quot;sale&quot; or &quot;sharing&quot; under the CCPA. You can tell us not to sell or
            share your personal information at any time.
          </List.Item>
          <List.Item>
            Right to non-discrimination: we will not deny you our services, charge you a different price or
            give you a different level of service because you used any of these rights.
          </List.Item>
        </List>
      </LegalSection>

      <LegalSection title="Categories of Personal Information We Collect">
        <List spacing="sm">
          <List.Item>
            Identifiers: name, postal address, ZIP code, e-mail address, phone number and IP address.
          </List.Item>
          <List.Item>Personal characteristics: date of birth, which shows your age.</List.Item>
          <List.Item>
            Internet or other electronic network activity: pages viewed, referring website, browser and device
            details, and visit times.
          </List.Item>
          <List.Item>Geolocation data: approximate location derived from your IP address.</List.Item>
          <List.Item>
            Consent records: the date, time, wording and technical details of your consent to be contacted.
          </List.Item>
        </List>
        <Text>
          We collect this information directly from you when you fill in our form and automatically from your
          browser when you visit our website. We use it for the purposes described in our Privacy Policy, and
          we disclose identifiers and consent records to marketing partners and service providers. We do not
          knowingly sell or share the personal information of anyone under 16.
        </Text>
      </LegalSection>

      <LegalSection title="How to Submit a Request">
        <Text>
          Send an e-mail to <SupportEmailLink subject={REQUEST_SUBJECT} /> with the subject line &quot;
          {REQUEST_SUBJECT}&quot; and include:
        </Text>
        <List spacing="xs">
          <List.Item>your full name;</List.Item>
          <List.Item>the e-mail address you used on our website;</List.Item>
          <List.Item>your request type: access, deletion or opt-out of sale.</List.Item>
        </List>
        <Paper withBorder p="md" radius="md">
          <Text fw={700}>Do Not Sell or Share My Personal Information</Text>
          <Text>
            To opt out, e-mail us with the request type &quot;opt-out of sale&quot;. You do not need to verify
            your identity to opt out. We also honor the Global Privacy Control (GPC) signal: if your browser
            sends it, we treat it as a request to opt out of the sale and sharing of personal information
            linked to that browser.
          </Text>
        </Paper>
      </LegalSection>

      <LegalSection title="Identity Verification">
        <Text>
          To protect your information, we verify your identity before we act on a request to know or delete.
          We will match the details in your request against the information we hold and may ask you to confirm
          information such as your phone number or date of birth. We use the information you give for
          verification only to verify your request.
        </Text>
      </LegalSection>

      <LegalSection title="Response Time">
        <Text>
          We will confirm receipt of your request and respond within 45 days. If we need more time, we may
          extend this by another 45 days; we will tell you why and how long the extension will be before the
          first 45 days end.
        </Text>
      </LegalSection>

      <LegalSection title="Authorized Agents">
        <Text>
          You may use an authorized agent to make a request for you. The agent must provide your signed
          written permission or a valid power of attorney, and we may ask you to verify your own identity
          directly with us or to confirm that you gave the agent permission.
        </Text>
      </LegalSection>
    </LegalLayout>
  );
}
