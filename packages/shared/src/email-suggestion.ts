// "Did you mean …?" for an e-mail domain that looks like a slip of the keyboard on a major provider
// (issue 33, EMAIL_TYPO). One implementation for the landing form (with or without JavaScript) and the
// server's quality check, so the hint a visitor sees and the reason an admin sees never disagree. It
// ships on the landing page: plain code and a few hundred bytes of names, no dependencies.

/** Where most US consumer mail lives, most used first: a tie goes to the earlier one. */
const PROVIDERS =
  'gmail.com yahoo.com hotmail.com outlook.com aol.com icloud.com comcast.net att.net verizon.net live.com msn.com sbcglobal.net bellsouth.net charter.net cox.net me.com mac.com ymail.com googlemail.com rocketmail.com protonmail.com earthlink.net optonline.net frontier.com windstream.net juno.com'.split(
    ' ',
  );

/**
 * Real mail domains one slip away from a provider (mail.com and email.com are a provider of their own,
 * cloud.com is a company): a typo rule must never "correct" a working address.
 */
const NEVER_CORRECTED = new Set(['mail.com', 'email.com', 'cloud.com', 'gmx.com', 'aim.com', ...PROVIDERS]);

/** Optimal string alignment distance (edits, adjacent swaps counted once), or max + 1 once past max. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      let cost = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        cost = Math.min(cost, before[j - 2]! + 1);
      current[j] = cost;
    }
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * Short names (aol, att, cox, live…) sit one substitution away from many real domains (aim, act,
 * love…), so for them only the slips nobody types on purpose count: two neighbours swapped, or a
 * letter doubled.
 */
function isSlip(typed: string, name: string): boolean {
  if (typed.length === name.length) {
    const i = [...typed].findIndex((c, k) => c !== name[k]);
    return (
      i >= 0 &&
      typed[i] === name[i + 1] &&
      typed[i + 1] === name[i] &&
      typed.slice(i + 2) === name.slice(i + 2)
    );
  }
  if (typed.length !== name.length + 1) return false;
  for (let i = 0; i < name.length; i++) {
    if (typed[i] === typed[i + 1] && typed.slice(0, i) + typed.slice(i + 1) === name) return true;
  }
  return false;
}

/**
 * The whole address with the provider's domain when the typed domain looks like a slip on one
 * (gmial.com, gmai.com, gmail.co, hotmial.com, yaho.com, yahooo.com, outlok.com, icloud.co…), else
 * null. Conservative on purpose: it only ever suggests, yet a wrong hint under a correct address
 * is worse than no hint.
 */
export function suggestEmail(email: string): string | null {
  const trimmed = email.trim();
  const at = trimmed.lastIndexOf('@');
  if (at < 1) return null;
  const local = trimmed.slice(0, at);
  const domain = trimmed.slice(at + 1).toLowerCase();
  if (NEVER_CORRECTED.has(domain)) return null;
  // "gmailcom": the dot left out.
  const undotted = PROVIDERS.find((p) => p.replace('.', '') === domain);
  if (undotted) return `${local}@${undotted}`;
  const dot = domain.lastIndexOf('.');
  if (dot < 1) return null;
  const name = domain.slice(0, dot);
  const tld = domain.slice(dot + 1);
  let best: string | null = null;
  let bestScore = 3;
  for (const provider of PROVIDERS) {
    const pDot = provider.lastIndexOf('.');
    const pName = provider.slice(0, pDot);
    // com → c, co, con, cmo, comm; net → ne, nt, ner. Another TLD altogether (yahoo.ca, aol.de) is a
    // real provider's country site, never a slip.
    const pTld = provider.slice(pDot + 1);
    const tldEdits = pTld.startsWith(tld) && tld !== pTld ? 1 : distance(tld, pTld, 1);
    if (tldEdits > 1) continue;
    let nameEdits: number;
    if (pName.length <= 4) nameEdits = name === pName ? 0 : isSlip(name, pName) ? 1 : 3;
    else nameEdits = distance(name, pName, pName.length >= 8 ? 2 : 1);
    const allowed = pName.length >= 8 ? 2 : 1;
    const score = nameEdits + tldEdits;
    if (nameEdits <= allowed && score <= (pName.length <= 4 ? 1 : 2) && score > 0 && score < bestScore) {
      best = provider;
      bestScore = score;
    }
  }
  return best ? `${local}@${best}` : null;
}
