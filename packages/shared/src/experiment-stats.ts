// The statistics of a landing experiment (issue 48, ADR 075), written out here rather than taken from a
// library: a few closed formulas, each checked against worked examples in experiment-stats.test.ts, and
// shared so the admin screen computes the power calculation the same way the server does.
//
// Every metric is a mean per visitor: a rate (a lead, an accepted lead: 0 or 1 per visitor) or money
// (net revenue in cents per visitor). An arm is summarised by its count of visitors, the sum of the
// metric over them and the sum of its squares, which is all the formulas need.

export type ArmSummary = { n: number; sum: number; sumSquares: number };

/** A two-sided 95 % interval. */
export type Interval = { low: number; high: number };

export type Comparison = {
  /** Treatment mean minus control mean (per visitor). */
  absolute: number;
  /** Treatment mean over control mean, minus 1; null when the control's mean is 0. */
  relative: number | null;
  /** Valid only when read once, at the planned size (the textbook interval). */
  fixed: { absolute: Interval; relative: Interval | null };
  /** Valid however often it is read: the asymptotic confidence sequence tuned at the planned size. */
  sequential: { absolute: Interval; relative: Interval | null };
  /** Two-sided p-value of the fixed-horizon z-test (also only meaningful at the planned size). */
  pValue: number;
};

export const ALPHA = 0.05;
/** The 97.5th percentile of the standard normal distribution. */
export const Z_975 = 1.959963984540054;
/** The 80th percentile (80 % power). */
export const Z_80 = 0.8416212335729143;

/**
 * The complementary error function, by the Chebyshev fit in Numerical Recipes (fractional error below
 * 1.2e-7 everywhere), which is plenty for p-values read to three digits.
 */
export function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const poly =
    -z * z -
    1.26551223 +
    t *
      (1.00002368 +
        t *
          (0.37409196 +
            t *
              (0.09678418 +
                t *
                  (-0.18628806 +
                    t *
                      (0.27886807 +
                        t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  const r = t * Math.exp(poly);
  return x >= 0 ? r : 2 - r;
}

/** P(Z ≤ x) for a standard normal Z. */
export function normalCdf(x: number): number {
  return 0.5 * erfc(-x / Math.SQRT2);
}

/** The mean and the (population) variance of a metric per visitor; 0 and 0 without visitors. */
export function moments(arm: ArmSummary): { mean: number; variance: number } {
  if (arm.n <= 0) return { mean: 0, variance: 0 };
  const mean = arm.sum / arm.n;
  // For a rate (sum = sumSquares = conversions) this is p(1 − p), the textbook binomial variance.
  return { mean, variance: Math.max(0, arm.sumSquares / arm.n - mean * mean) };
}

/**
 * The half-width of the two-sided asymptotic confidence sequence (Waudby-Smith et al., "Time-uniform
 * central limit theory and asymptotic confidence sequences", 2023; GrowthBook's sequential testing) for
 * an estimate whose standard error is `se` after `n` observations, tuned to be narrowest at `plannedN`:
 *
 *   half = σ · sqrt( 2(nρ² + 1) / (n²ρ²) · ln( sqrt(nρ² + 1) / α ) ),  σ = se · sqrt(n),
 *   ρ²   = ( −2 ln α + ln(−2 ln α + 1) ) / plannedN.
 */
export function sequentialHalfWidth(se: number, n: number, plannedN: number, alpha = ALPHA): number {
  if (n <= 0 || !(se > 0)) return se > 0 ? Number.POSITIVE_INFINITY : 0;
  const rho2 = (-2 * Math.log(alpha) + Math.log(-2 * Math.log(alpha) + 1)) / Math.max(1, plannedN);
  const sigma = se * Math.sqrt(n);
  const a = n * rho2 + 1;
  return sigma * Math.sqrt(((2 * a) / (n * n * rho2)) * Math.log(Math.sqrt(a) / alpha));
}

const around = (centre: number, half: number): Interval => ({ low: centre - half, high: centre + half });

/**
 * One arm against the control on one metric. Absolute lift with its standard error from the two arms'
 * variances; relative lift by the delta method:
 *   Var(μB/μA) ≈ Var(μB)/μA² + μB²·Var(μA)/μA⁴,  Var(μX) = σX²/nX.
 * `plannedVisitors` is the total (both arms of this comparison share it in proportion to their weights;
 * the caller passes the two arms' planned share).
 */
export function compare(control: ArmSummary, treatment: ArmSummary, plannedN: number): Comparison | null {
  if (control.n < 2 || treatment.n < 2) return null;
  const a = moments(control);
  const b = moments(treatment);
  const varA = a.variance / control.n;
  const varB = b.variance / treatment.n;
  const absolute = b.mean - a.mean;
  const se = Math.sqrt(varA + varB);
  const n = control.n + treatment.n;
  const relative = a.mean > 0 ? b.mean / a.mean - 1 : null;
  const seRelative =
    a.mean > 0 ? Math.sqrt(varB / (a.mean * a.mean) + (b.mean * b.mean * varA) / a.mean ** 4) : null;
  const pValue = se > 0 ? 2 * (1 - normalCdf(Math.abs(absolute) / se)) : absolute === 0 ? 1 : 0;
  return {
    absolute,
    relative,
    fixed: {
      absolute: around(absolute, Z_975 * se),
      relative: relative !== null && seRelative !== null ? around(relative, Z_975 * seRelative) : null,
    },
    sequential: {
      absolute: around(absolute, sequentialHalfWidth(se, n, plannedN)),
      relative:
        relative !== null && seRelative !== null
          ? around(relative, sequentialHalfWidth(seRelative, n, plannedN))
          : null,
    },
    pValue: Math.min(1, Math.max(0, pValue)),
  };
}

/**
 * Sample-ratio mismatch: Pearson's chi-square of the observed visitors per arm against the split the
 * weights ask for, and its p-value (k − 1 degrees of freedom, k ≤ 4: closed forms of the chi-square
 * survival function for 1, 2 and 3 degrees of freedom).
 */
export function sampleRatioPValue(observed: number[], weights: number[]): number {
  const total = observed.reduce((s, x) => s + x, 0);
  const weightSum = weights.reduce((s, w) => s + w, 0);
  if (total === 0 || weightSum === 0) return 1;
  let chi2 = 0;
  let df = -1;
  observed.forEach((x, i) => {
    const expected = (total * (weights[i] ?? 0)) / weightSum;
    if (expected > 0) {
      chi2 += (x - expected) ** 2 / expected;
      df += 1;
    }
  });
  return chiSquareSurvival(chi2, df);
}

/** P(χ²_df > x) for df 1, 2 or 3. */
export function chiSquareSurvival(x: number, df: number): number {
  if (df <= 0 || x <= 0) return 1;
  if (df === 1) return erfc(Math.sqrt(x / 2));
  if (df === 2) return Math.exp(-x / 2);
  if (df === 3) return erfc(Math.sqrt(x / 2)) + Math.sqrt((2 * x) / Math.PI) * Math.exp(-x / 2);
  throw new Error(`chi-square with ${df} degrees of freedom is not needed (at most 4 arms)`);
}

/**
 * Visitors per arm for a fixed-horizon two-proportion test: 95 % two-sided, 80 % power, to detect a
 * relative change `minimumEffect` (0.2 = 20 %) on a baseline rate:
 *   n = (z₀.₉₇₅ + z₀.₈)² · (p₁(1 − p₁) + p₂(1 − p₂)) / (p₂ − p₁)²,  p₂ = p₁(1 + effect).
 */
export function visitorsPerArm(baselineRate: number, minimumEffect: number): number {
  const p1 = baselineRate;
  const p2 = Math.min(0.999999, baselineRate * (1 + minimumEffect));
  const diff = p2 - p1;
  if (!(p1 > 0) || !(p1 < 1) || diff === 0) return 0;
  return Math.ceil(((Z_975 + Z_80) ** 2 * (p1 * (1 - p1) + p2 * (1 - p2))) / (diff * diff));
}

/** The defaults the planned size comes from when an admin gives none: a 5 % lead rate, 20 % lift. */
export const POWER_DEFAULTS = { baselineRate: 0.05, minimumEffect: 0.2 } as const;

/** The planned total of visitors for `arms` arms, each compared with the control. */
export function plannedVisitorsFor(
  arms: number,
  baselineRate: number = POWER_DEFAULTS.baselineRate,
  minimumEffect: number = POWER_DEFAULTS.minimumEffect,
): number {
  return visitorsPerArm(baselineRate, minimumEffect) * arms;
}
