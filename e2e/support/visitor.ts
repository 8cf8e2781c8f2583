import type { APIRequestContext } from 'playwright-core';

// A lead submitted as a real visitor does (issue 33): the page's form token, a few seconds on the page, a
// browser's user agent, an address of its own (the e2e server trusts the loopback proxy) and realistic
// details. Lead quality accepts it; only an accepted lead is delivered.

const BROWSER_UA =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
/** How long the visitor stays on the page before submitting (the rules hold leads sent within 3 s). */
const SECONDS_ON_PAGE = 3.5;

let visitors = 0;
/**
 * This file's block of 64 visitor addresses, one of 1,024 in 198.18.0.0/16 picked at random: the e2e files
 * share one server, and leads from one address are held once more than 3 come within 10 minutes
 * (VELOCITY_IP). With a counter alone every file's first visitor was 198.18.0.1, so a file's lead was
 * held, never delivered, when three other files had sent theirs shortly before (seen in CI).
 */
const ADDRESS_BLOCK = Math.floor(Math.random() * 1024) * 64;
const visitorAddress = () => {
  const n = ADDRESS_BLOCK + (visitors % 64);
  return `198.18.${n >> 8}.${n & 255}`;
};

/** A visitor's details, unique per call: a real area code and exchange, a gmail mailbox, a real ZIP. */
export function visitorLead(overrides: Record<string, string> = {}): Record<string, string> {
  visitors += 1;
  const n = (Date.now() % 100_000) * 10 + visitors;
  let exchange = 201 + (n % 789);
  if (exchange % 100 === 11 || exchange === 555) exchange += 1;
  return {
    firstName: 'Rosa',
    lastName: `Delgado-${['Ruiz', 'Park', 'Moore', 'Khan'][n % 4]}`,
    streetAddress: `${100 + (n % 900)} Willow Ave`,
    zipCode: '90210',
    email: `rosa.delgado.${n}@gmail.com`,
    phone: `(415) ${exchange}-${String(1000 + ((n * 7919) % 8000) + 37).slice(-4)}`,
    birthMonth: '5',
    birthDay: '17',
    birthYear: '1970',
    consentGiven: 'true',
    ...overrides,
  };
}

/** Submits `lead` through POST /api/submit-search as a visitor would; answers the response. */
export async function submitAsVisitor(
  request: APIRequestContext,
  lead: Record<string, string> = visitorLead(),
) {
  const tokenAnswer = await request.get('/api/form-token');
  const { formToken } = (await tokenAnswer.json()) as { formToken: string };
  const servedAt = Date.now();
  // The visitor fills the form in: the condition is the time since the page was served.
  while (Date.now() - servedAt < SECONDS_ON_PAGE * 1000) await new Promise((r) => setTimeout(r, 100));
  return request.post('/api/submit-search', {
    data: { ...lead, formToken },
    headers: {
      'user-agent': BROWSER_UA,
      'x-forwarded-for': visitorAddress(),
    },
  });
}
