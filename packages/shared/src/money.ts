// Money is whole cents in the database and in computation (house rule); dollars only at the edges: the
// admin API's answers and input, CSV files and screens. Sums and ratios are taken on cents.

/** Whole cents of a dollar amount given as a number (an API's input, a buyer's JSON payout): 8.5 → 850. */
export const centsOf = (dollars: number): number => Math.round(dollars * 100);

/** Dollars of whole cents, for an answer, a file or a screen: 850 → 8.5. */
export const dollarsOf = (cents: number): number => cents / 100;

/**
 * Whole cents from an amount's text: "1,234.56", "$12.3", "$ 8.50", ".5", "0". Done on the digits, never
 * through a float: 0.1 + 0.2 is not an amount. A third decimal (Meta writes some) rounds half up. Null
 * when the text is not an amount ≥ 0 (negative, two points, letters, empty).
 */
export function parseCents(text: string): number | null {
  const s = text.trim().replace(/^\$\s*/, '');
  const m = /^(\d{1,3}(?:,\d{3})+|\d*)(?:\.(\d+))?$/.exec(s);
  if (!m || (m[1] === '' && m[2] === undefined)) return null;
  const whole = Number((m[1] || '0').replaceAll(',', ''));
  const frac = (m[2] ?? '').padEnd(3, '0');
  const cents = whole * 100 + Number(frac.slice(0, 2)) + (Number(frac[2]) >= 5 ? 1 : 0);
  return Number.isSafeInteger(cents) ? cents : null;
}

/** Whether a dollar amount given as a number has whole cents (12.34 yes, 12.345 no): input refuses the rest. */
export const hasWholeCents = (dollars: number): boolean =>
  Math.abs(dollars * 100 - Math.round(dollars * 100)) < 1e-6;
