import { Anchor, List, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { usePageMeta } from '../../page-meta';
import { LegalLayout, LegalSection, SupportEmailLink } from './legal-layout';

export function PrivacyPage() {
  usePageMeta({
    title: 'Privacy Policy',
    description:
      'How Unclaimed Funds Finder collects, uses, shares and protects your personal information, and the privacy choices and rights available to you.',
  });

  return (
    <LegalLayout title="Privacy Policy" showLastUpdated>
      <Text>
        This Privacy Policy explains how Unclaimed Funds Finder (&quot;we&quot;, &quot;us&quot;) handles
        personal information when you visit our website or submit our form. Unclaimed Funds Finder is a
        privately owned company and is not affiliated with any government agency.
      </Text>

      <LegalSection title="1. Information We Collect">
        <Text>Information you give us through our form:</Text>
        <List spacing="xs">
          <List.Item>your first and last name;</List.Item>
          <List.Item>your street address and ZIP code, and the state we determine from them;</List.Item>
          <List.Item>your e-mail address and phone number;</List.Item>
          <List.Item>your date of birth (month, day and year);</List.Item>
          <List.Item>the beneficiary relationship you choose, if you choose one.</List.Item>
        </List>
        <Text>Information collected automatically:</Text>
        <List spacing="xs">
          <List.Item>
            your Internet Protocol (IP) address and the approximate location (such as country) derived from
            it;
          </List.Item>
          <List.Item>
            device and browser data, such as browser type, operating system, the pages you view, the website
            that referred you and the time of your visit.
          </List.Item>
        </List>
        <Text>
          Consent records: when you agree to be contacted, we keep a record of your consent, including the
          date and time, the consent wording shown to you, your IP address, the page where you gave consent
          and any consent certificate created by a consent-verification provider.
        </Text>
      </LegalSection>

      <LegalSection title="2. How We Use Your Information">
        <List spacing="xs">
          <List.Item>to point you to the official unclaimed property website for your state;</List.Item>
          <List.Item>
            to contact you by phone, text message and e-mail, where you have given consent, about unclaimed
            property and offers from us and our marketing partners;
          </List.Item>
          <List.Item>to prevent duplicate, fraudulent or invalid submissions;</List.Item>
          <List.Item>to measure and improve how our website performs;</List.Item>
          <List.Item>
            to keep proof of your consent and to meet our legal and regulatory obligations;
          </List.Item>
          <List.Item>to answer your questions and handle your privacy requests.</List.Item>
        </List>
      </LegalSection>

      <LegalSection title="3. How We Share Your Information">
        <Text>We may share your personal information with:</Text>
        <List spacing="xs">
          <List.Item>
            Marketing partners: companies that may contact you by phone, text message or e-mail about their
            products and services, in line with the consent you gave on our form. These partners use your
            information under their own privacy policies.
          </List.Item>
          <List.Item>
            Service providers: companies that host our website and data, deliver our e-mails and text
            messages, provide analytics and verify consent, acting on our instructions.
          </List.Item>
          <List.Item>
            Legal and safety recipients: courts, regulators and law enforcement, where the law requires it or
            where it is needed to protect our rights, users or others.
          </List.Item>
          <List.Item>
            Business transferees: a buyer or successor if our business is sold, merged or reorganized.
          </List.Item>
        </List>
        <Text>
          Sharing information with marketing partners may be considered a &quot;sale&quot; or
          &quot;sharing&quot; of personal information under some state privacy laws. You can opt out at any
          time, as described in section 7.
        </Text>
      </LegalSection>

      <LegalSection title="4. Cookies and Analytics">
        <Text>
          We use cookies, browser storage and similar technologies to keep our website working, to count page
          views, form submissions and other visits, and to understand which websites send visitors to us. Our
          analytics use a random session identifier stored in your browser for the length of your visit. We
          may also use advertising pixels to measure whether our ads lead to form submissions.
        </Text>
        <Text>
          You can block or delete cookies and browser storage in your browser settings. Parts of the website
          may not work as intended if you do.
        </Text>
      </LegalSection>

      <LegalSection title="5. Data Retention">
        <Text>
          We keep personal information only for as long as we need it for the purposes described in this
          policy, unless the law requires or allows us to keep it longer. Records of your consent to be
          contacted are kept for at least 5 years so that we can show how and when consent was given. When
          information is no longer needed, we delete it or make it anonymous.
        </Text>
      </LegalSection>

      <LegalSection title="6. Data Security">
        <Text>
          We use reasonable administrative, technical and physical safeguards to protect your information,
          including encrypted connections (HTTPS) between your browser and our website, and access to personal
          information limited to authorized staff with individual accounts. No method of transmission or
          storage is completely secure, so we cannot guarantee absolute security.
        </Text>
      </LegalSection>

      <LegalSection title="7. Your Rights and Choices">
        <List spacing="xs">
          <List.Item>
            Access, correction and deletion: you can ask for a copy of the personal information we hold about
            you, ask us to correct it, or ask us to delete it.
          </List.Item>
          <List.Item>
            Opting out of marketing: reply STOP to any text message, use the unsubscribe link in any e-mail,
            or use our{' '}
            <Anchor component={Link} to="/unsubscribe" underline="always">
              unsubscribe page
            </Anchor>
            . Changes may take up to 48 hours to take effect.
          </List.Item>
          <List.Item>
            Opting out of sale or sharing: you can ask us to stop selling or sharing your personal information
            with marketing partners. We treat a Global Privacy Control signal from your browser as such a
            request.
          </List.Item>
        </List>
        <Text>
          California residents have additional rights. See{' '}
          <Anchor component={Link} to="/ca-privacy" underline="always">
            California Privacy Rights
          </Anchor>{' '}
          to learn more or to make a request. Residents of other states may have similar rights under their
          state&apos;s law, and we will honor requests as those laws require. To make any request, e-mail us
          at <SupportEmailLink />. We will not treat you differently for using your privacy rights.
        </Text>
      </LegalSection>

      <LegalSection title="8. Children's Privacy">
        <Text>
          Our website is intended for adults and is not directed to children. We do not knowingly collect
          personal information from anyone under 18. If you believe a child has given us personal information,
          contact us and we will delete it.
        </Text>
      </LegalSection>

      <LegalSection title="9. Changes and Contact Us">
        <Text>
          We may update this Privacy Policy from time to time. The date at the top of this page shows when it
          was last updated. If you have questions about this policy or how we handle your information, e-mail
          us at <SupportEmailLink />.
        </Text>
      </LegalSection>
    </LegalLayout>
  );
}
