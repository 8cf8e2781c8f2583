let counter = 0;

/** A valid submission body (the wire format: all strings, consent 'true'). */
export function leadBody(overrides: Record<string, string> = {}) {
  counter += 1;
  return {
    firstName: 'Jane',
    lastName: 'Doe',
    streetAddress: '1 Main St',
    zipCode: '90210',
    email: `jane.${counter}.${Math.random().toString(36).slice(2, 8)}@example.com`,
    phone: '(555) 123-4567',
    birthMonth: '5',
    birthDay: '17',
    birthYear: '1970',
    consentGiven: 'true' as 'true' | 'false',
    ...overrides,
  };
}

const FIRST_NAMES = [
  'Maria',
  'James',
  'Aisha',
  'Wei',
  'Carlos',
  'Emily',
  'Darnell',
  'Priya',
  'Sean',
  'Lucía',
];
const LAST_NAMES = [
  'Garcia',
  'Johnson',
  "O'Neil",
  'Nguyen',
  'Smith-Allen',
  'Okafor',
  'Kowalski',
  'Patel',
  'Martínez',
  'Lee',
];
const AREA_CODES = ['212', '312', '415', '617', '713', '305', '206', '404', '602', '303'];
const STREETS = ['Maple Ave', 'Oak St', 'Pine Rd', 'Cedar Ln', 'Elm St', 'Lakeview Dr'];
// Consecutive numbers from a random start: unique phones and mailboxes within a test file (the
// numbering repeats only after millions), different ones from run to run.
let visitorCounter = Math.floor(Math.random() * 1_000_000);

/**
 * A submission as a real visitor makes it (issue 33): a plausible person with a mailbox at a common
 * provider and a phone number of their own (a real area code, an ordinary exchange), unique per call.
 * Lead quality accepts it — unlike `leadBody`, whose "Jane Doe", 555 area code and example.com it holds
 * or rejects.
 */
export function visitorLeadBody(overrides: Record<string, string> = {}) {
  visitorCounter += 1;
  const n = visitorCounter;
  const first = FIRST_NAMES[n % FIRST_NAMES.length] ?? 'Maria';
  const last = LAST_NAMES[Math.floor(n / 10) % LAST_NAMES.length] ?? 'Garcia';
  // Exchanges 201–989 without N11 (x11) and 555; lines that are neither runs nor one digit repeated.
  let exchange = 201 + (n % 789);
  if (exchange % 100 === 11 || exchange === 555) exchange += 1;
  const line = String(1000 + ((n * 7919) % 8000) + 37).slice(-4);
  const mailbox = `${first}.${last}`
    .normalize('NFD')
    .replace(/[^A-Za-z.]/g, '')
    .toLowerCase();
  return {
    firstName: first,
    lastName: last,
    streetAddress: `${100 + (n % 900)} ${STREETS[n % STREETS.length] ?? 'Oak St'}`,
    zipCode: '60614',
    email: `${mailbox}${n}@gmail.com`,
    phone: `(${AREA_CODES[n % AREA_CODES.length]}) ${exchange}-${line}`,
    birthMonth: String(1 + (n % 12)),
    birthDay: String(1 + (n % 28)),
    birthYear: String(1945 + (n % 45)),
    consentGiven: 'true' as 'true' | 'false',
    ...overrides,
  };
}
