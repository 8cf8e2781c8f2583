import { REASON_CODES, type ReasonCode } from '@uf/shared/quality';
import { checkBirthDate } from './checks/dob';
import { checkEmail, isDomainAllowed, normaliseDomain } from './checks/email';
import { checkNames } from './checks/names';
import { checkPhone, phoneToE164 } from './checks/phone';
import { checkZip } from './checks/zip';

// The field checks of a lead's quality verdict (issue 33): pure, offline and cheap enough for the submit
// path of every lead (tables are built once at module load; a call allocates only a few small
// strings). The duplicate, velocity, bot and consent checks need the database or the request and live
// with the verdict, not here.

export type LeadFields = {
  firstName: string;
  lastName: string;
  email?: string | null;
  phone: string;
  zipCode?: string | null;
  birthMonth: number | string;
  birthDay: number | string;
  birthYear: number | string;
};

export type FieldCheck = {
  /** Field reason codes found, in REASON_CODES order, no duplicates. */
  codes: ReasonCode[];
  /** '+12125550123' when the phone parses as a NANP number, else null: the duplicate key. */
  phoneE164: string | null;
  /** The mailbox after provider normalisation (lower case, Gmail dots and +tags…); null when invalid or absent. */
  emailKey: string | null;
  /** "Did you mean …?": the whole address, when EMAIL_TYPO is among the codes. */
  emailSuggestion: string | null;
};

export type AllowLists = { emailDomains: string[]; phones: string[] };

/** Every code these checks can give, in REASON_CODES order. */
export const FIELD_REASON_CODES = REASON_CODES.filter((code) =>
  /^(?:PHONE|EMAIL|ZIP|NAME|DOB)_/.test(code),
) as readonly ReasonCode[];

const ORDER = new Map(REASON_CODES.map((code, i) => [code, i]));
const byReasonOrder = (a: ReasonCode, b: ReasonCode) => ORDER.get(a)! - ORDER.get(b)!;

// The settings' allow lists are normalised once per list object (the settings are loaded once per rules
// version), not once per lead.
const allowedDomains = new WeakMap<string[], ReadonlySet<string>>();
const allowedPhones = new WeakMap<string[], ReadonlySet<string>>();

function domainSet(list: string[]): ReadonlySet<string> {
  let set = allowedDomains.get(list);
  if (!set) {
    set = new Set(list.map(normaliseDomain).filter((d) => d !== ''));
    allowedDomains.set(list, set);
  }
  return set;
}

function phoneSet(list: string[]): ReadonlySet<string> {
  let set = allowedPhones.get(list);
  if (!set) {
    set = new Set(list.map(phoneToE164).filter((p): p is string => p !== null));
    allowedPhones.set(list, set);
  }
  return set;
}

/** The e-mail's domain (or a parent of it) is on the allow list: the operator's own test addresses. */
export function isEmailAllowed(email: string | null | undefined, allow: AllowLists): boolean {
  const at = email?.lastIndexOf('@') ?? -1;
  if (!email || at < 0 || allow.emailDomains.length === 0) return false;
  const domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase();
  return domain !== '' && isDomainAllowed(domain, domainSet(allow.emailDomains));
}

/** The phone (as E.164) is on the allow list, however the list's entries are written. */
export function isPhoneAllowed(phoneE164: string | null, allow: AllowLists): boolean {
  return phoneE164 !== null && allow.phones.length > 0 && phoneSet(allow.phones).has(phoneE164);
}

export function checkLeadFields(lead: LeadFields, allow: AllowLists): FieldCheck {
  const codes: ReasonCode[] = [];

  const phone = checkPhone(lead.phone);
  if (phone.codes.length > 0 && !isPhoneAllowed(phone.e164, allow)) codes.push(...phone.codes);

  const email = checkEmail(lead.email);
  const emailAllowed = email.codes.length > 0 && isEmailAllowed(lead.email, allow);
  if (!emailAllowed) codes.push(...email.codes);

  codes.push(...checkZip(lead.zipCode));
  codes.push(...checkNames(lead.firstName, lead.lastName));
  codes.push(...checkBirthDate(lead.birthMonth, lead.birthDay, lead.birthYear));

  return {
    codes: codes.sort(byReasonOrder),
    phoneE164: phone.e164,
    emailKey: email.key,
    emailSuggestion: !emailAllowed && email.codes.includes('EMAIL_TYPO') ? email.suggestion : null,
  };
}
