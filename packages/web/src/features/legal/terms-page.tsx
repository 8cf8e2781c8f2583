import { Anchor, List, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { BIRTH_YEAR_MAX, BIRTH_YEAR_MIN, MAX_MESSAGES_PER_MONTH } from '@uf/shared/constants';
import { usePageMeta } from '../../page-meta';
import { LegalLayout, LegalSection, SupportEmailLink } from './legal-layout';

export function TermsPage() {
  usePageMeta({
    title: 'Terms & Conditions',
    description:
      'The terms for using Unclaimed Funds Finder, a private service that points you to free official state unclaimed property websites.',
  });

  return (
    <LegalLayout title="Terms & Conditions" showLastUpdated>
      <Text>
        Please read these Terms &amp; Conditions carefully before using the Unclaimed Funds Finder website.
        They explain what our service does, what it does not do, and the rules that apply when you use it.
      </Text>

      <LegalSection title="1. Acceptance of Terms">
        <Text>
          By visiting or using this website, or by submitting your information through our form, you agree to
          these Terms &amp; Conditions and to our{' '}
          <Anchor component={Link} to="/privacy" underline="always">
            Privacy Policy
          </Anchor>
          . If you do not agree, please do not use the website or submit any information.
        </Text>
      </LegalSection>

      <LegalSection title="2. About Our Service">
        <Text>
          Unclaimed Funds Finder is a privately owned company. We help visitors in the United States find the
          official unclaimed property website for their state, where they can search for money and assets such
          as forgotten bank accounts, uncashed payroll checks, insurance benefits, utility deposits and safe
          deposit box contents.
        </Text>
        <List spacing="xs">
          <List.Item>
            We are not a government agency and are not affiliated with, endorsed by or sponsored by any
            federal, state or local government agency or unclaimed property program.
          </List.Item>
          <List.Item>
            We are not a law firm, and nothing on this website is legal, tax or financial advice.
          </List.Item>
          <List.Item>
            Searching for and claiming unclaimed property on official state websites is free. You do not need
            to use our website, or pay anyone, to search or to file a claim directly with a state.
          </List.Item>
          <List.Item>
            We do not hold unclaimed property, file claims on your behalf or decide whether a claim is
            approved. Only the state holding the property can do that.
          </List.Item>
          <List.Item>
            We cannot promise that you are owed money or that any search will find property in your name.
          </List.Item>
        </List>
      </LegalSection>

      <LegalSection title="3. Eligibility and Accurate Information">
        <Text>
          Our service is intended for adults who live in the United States. Our form currently accepts
          submissions only from people born between {BIRTH_YEAR_MIN} and {BIRTH_YEAR_MAX}. By submitting the
          form, you confirm that:
        </Text>
        <List spacing="xs">
          <List.Item>the information you provide is true, accurate and complete;</List.Item>
          <List.Item>
            the information is about yourself, and the phone number and e-mail address you give belong to you
            or are ones you are authorized to use;
          </List.Item>
          <List.Item>you submit your information only once.</List.Item>
        </List>
        <Text>
          We may refuse or remove submissions that appear to be false, duplicated or made on behalf of someone
          else without their permission.
        </Text>
      </LegalSection>

      <LegalSection title="4. Consent to Calls, Texts and E-mails">
        <Text>
          When you check the consent box on our form, you agree that Unclaimed Funds Finder and its marketing
          partners may contact you at the phone number and e-mail address you provide by phone call, text
          message and e-mail, including calls and texts made with an automatic telephone dialing system
          (autodialer) and pre-recorded or artificial voice messages.
        </Text>
        <List spacing="xs">
          <List.Item>You may receive up to {MAX_MESSAGES_PER_MONTH} messages a month.</List.Item>
          <List.Item>Message and data rates may apply, depending on your mobile plan.</List.Item>
          <List.Item>Reply STOP to any text message to stop receiving texts.</List.Item>
          <List.Item>Reply HELP to any text message for help.</List.Item>
          <List.Item>
            You can withdraw your consent at any time through our{' '}
            <Anchor component={Link} to="/unsubscribe" underline="always">
              unsubscribe page
            </Anchor>
            , by using the unsubscribe link in any of our e-mails, or by writing to <SupportEmailLink />.
            Changes may take up to 48 hours to take effect.
          </List.Item>
        </List>
      </LegalSection>

      <LegalSection title="5. Third-Party Websites and Partners">
        <Text>
          Our website links to official state unclaimed property websites and other sites that we do not own
          or control. Those sites have their own terms and privacy policies, and we are not responsible for
          their content, availability or practices. Any offers you receive from our marketing partners are
          made by those partners, under their own terms, and any dealings you have with them are solely
          between you and them.
        </Text>
      </LegalSection>

      <LegalSection title="6. Acceptable Use and Intellectual Property">
        <Text>When using our website, you agree not to:</Text>
        <List spacing="xs">
          <List.Item>submit false information or information about another person;</List.Item>
          <List.Item>use the website for any unlawful, fraudulent or harmful purpose;</List.Item>
          <List.Item>
            attempt to gain unauthorized access to the website, its systems or its data, or disrupt its
            operation;
          </List.Item>
          <List.Item>
            copy, scrape or collect content or data from the website by automated means without our written
            permission.
          </List.Item>
        </List>
        <Text>
          The website&apos;s text, design, graphics and logos belong to Unclaimed Funds Finder or its
          licensors and are protected by intellectual property laws. You may view and print pages for your own
          personal, non-commercial use.
        </Text>
      </LegalSection>

      <LegalSection title="7. Disclaimers and Limitation of Liability">
        <Text>
          The website and our service are provided &quot;as is&quot; and &quot;as available&quot;, without
          warranties of any kind, whether express or implied, including warranties of accuracy, availability,
          merchantability or fitness for a particular purpose. Information about unclaimed property programs
          can change, so always rely on the official state website for current rules and deadlines.
        </Text>
        <Text>
          To the fullest extent permitted by law, Unclaimed Funds Finder and its partners will not be liable
          for any indirect, incidental, special or consequential damages, or for any loss of money, property
          or data, arising from your use of the website, from third-party websites, or from the outcome of any
          search or claim. Some jurisdictions do not allow certain limitations of liability, so some of these
          limitations may not apply to you.
        </Text>
      </LegalSection>

      <LegalSection title="8. Changes to These Terms and Contact">
        <Text>
          We may update these Terms &amp; Conditions from time to time. The date at the top of this page shows
          when they were last updated, and the version posted here applies to your use of the website from
          that date. If you keep using the website after a change, you accept the updated terms.
        </Text>
        <Text>
          Questions about these terms? Contact us at <SupportEmailLink /> or visit our{' '}
          <Anchor component={Link} to="/contact" underline="always">
            Contact Us
          </Anchor>{' '}
          page.
        </Text>
      </LegalSection>
    </LegalLayout>
  );
}
