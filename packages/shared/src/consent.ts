import { MAX_MESSAGES_PER_MONTH } from './constants';

// The disclosure shown beside the consent checkbox. Its exact text is consent evidence: change it
// only by adding a new version, so leads keep pointing at the words they agreed to.
export const CONSENT_TEXT_VERSION = '2026-11-22';

export const SITE_NAME = 'Unclaimed Funds Finder';

export const CONSENT_TEXT =
  `By checking this box, I agree that ${SITE_NAME} and its marketing partners may contact me with ` +
  'marketing calls, text messages and e-mails at the phone number and e-mail address I provided, including ' +
  'calls and texts sent using an automatic telephone dialing system (autodialer) and artificial or ' +
  'pre-recorded voice messages, even if my number is on a do-not-call list. Consent is not a condition of ' +
  `any purchase. Message frequency varies, up to ${MAX_MESSAGES_PER_MONTH} messages a month; message and ` +
  'data rates may apply. Reply STOP to stop, HELP for help. I also agree to the Terms & Conditions and ' +
  'Privacy Policy.';

export const NOT_GOVERNMENT_NOTICE =
  `${SITE_NAME} is a private service and is not affiliated with, endorsed by or connected to any ` +
  'government agency. Searching and claiming on official state sites is always free.';
