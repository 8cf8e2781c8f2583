import { describe, expect, it } from 'vitest';
import {
  type ArmSummary,
  chiSquareSurvival,
  compare,
  moments,
  normalCdf,
  sampleRatioPValue,
  sequentialHalfWidth,
  visitorsPerArm,
} from './experiment-stats';

// The statistics of landing experiments (issue 48, ADR 075) against worked examples. Every expected figure
// was computed independently (Python's math.erfc, the formulas written out in the comments), not by this
// module.

const rate = (n: number, conversions: number): ArmSummary => ({
  n,
  sum: conversions,
  sumSquares: conversions,
});

describe('normal distribution and chi-square', () => {
  it('matches known quantiles', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.959963984540054)).toBeCloseTo(0.975, 6);
    expect(normalCdf(-1.6448536269514722)).toBeCloseTo(0.05, 6);
    // The 95th percentiles of chi-square with 1, 2 and 3 degrees of freedom: 3.841459, 5.991465, 7.814728.
    expect(chiSquareSurvival(3.841458820694124, 1)).toBeCloseTo(0.05, 6);
    expect(chiSquareSurvival(5.991464547107979, 2)).toBeCloseTo(0.05, 6);
    expect(chiSquareSurvival(7.814727903251178, 3)).toBeCloseTo(0.05, 6);
  });
});

describe('compare: two proportions', () => {
  // Control 50 leads of 1,000 visitors (5 %), treatment 65 of 1,000 (6.5 %).
  // Var: 0.05·0.95 = 0.0475 and 0.065·0.935 = 0.060775; se = sqrt(0.0475/1000 + 0.060775/1000) = 0.0104055.
  const c = compare(rate(1000, 50), rate(1000, 65), 2000);

  it('gives the absolute lift, its fixed-horizon interval and p-value', () => {
    expect(c?.absolute).toBeCloseTo(0.015, 12);
    // 0.015 ± 1.959964 × 0.0104055 = [-0.0053945, 0.0353945]; z = 1.44154, p = 2(1 − Φ(z)) = 0.149432.
    expect(c?.fixed.absolute.low).toBeCloseTo(-0.005394458899678031, 6);
    expect(c?.fixed.absolute.high).toBeCloseTo(0.03539445889967803, 6);
    expect(c?.pValue).toBeCloseTo(0.1494317494756352, 5);
  });

  it('gives the relative lift by the delta method', () => {
    // 0.065 / 0.05 − 1 = 0.3; Var = 0.060775/(1000·0.05²) + 0.065²·0.0475/(1000·0.05⁴) = 0.02431 + 0.03211
    // = 0.05642, se = 0.237529; 0.3 ± 1.959964 × 0.237529 = [-0.165548, 0.765548].
    expect(c?.relative).toBeCloseTo(0.3, 12);
    expect(c?.fixed.relative?.low).toBeCloseTo(-0.16554817867065325, 5);
    expect(c?.fixed.relative?.high).toBeCloseTo(0.7655481786706533, 5);
  });

  it('gives the sequential interval, wider than the fixed one', () => {
    // ρ² = (−2 ln 0.05 + ln(−2 ln 0.05 + 1)) / 2000 = (5.991465 + 1.944691) / 2000 = 0.00396808;
    // a = 2000ρ² + 1 = 8.936155; half = 0.0104055·sqrt(2000)·sqrt(2a/(2000²ρ²) · ln(sqrt(a)/0.05))
    // = 0.465348 × sqrt(0.00112600 × 4.09079) = 0.0315830: 1.549 × the fixed half-width 0.0203945.
    expect(c?.sequential.absolute.low).toBeCloseTo(-0.016582950245225138, 6);
    expect(c?.sequential.absolute.high).toBeCloseTo(0.04658295024522514, 6);
    // The same factor on the relative lift's se: 0.3 ± 0.720950.
    expect(c?.sequential.relative?.low).toBeCloseTo(-0.42094999117346277, 5);
    expect(c?.sequential.relative?.high).toBeCloseTo(1.0209499911734627, 5);
  });

  it('has no relative lift when the control converts nobody, and nothing below 2 visitors an arm', () => {
    expect(compare(rate(100, 0), rate(100, 3), 200)?.relative).toBeNull();
    expect(compare(rate(1, 0), rate(100, 3), 200)).toBeNull();
  });

  it('narrows the sequential interval as visitors grow, and is always wider than the fixed one', () => {
    const widths = [500, 2000, 8000].map((n) => sequentialHalfWidth(0.2 / Math.sqrt(n), n, 2000));
    expect(widths[0]).toBeGreaterThan(widths[1] ?? 0);
    expect(widths[1]).toBeGreaterThan(widths[2] ?? 0);
    for (const n of [100, 2000, 100_000]) {
      const se = 0.2 / Math.sqrt(n);
      expect(sequentialHalfWidth(se, n, 2000)).toBeGreaterThan(1.96 * se);
    }
  });
});

describe('moments: revenue per visitor', () => {
  it('takes the variance from the sum of squares', () => {
    // Five visitors, one sold at $20.00 (2,000 cents): mean 400, variance 2000²/5 − 400² = 640,000.
    expect(moments({ n: 5, sum: 2000, sumSquares: 4_000_000 })).toEqual({ mean: 400, variance: 640_000 });
  });
});

describe('sample-ratio mismatch', () => {
  it('warns for 1,000 / 1,200 at 50/50 and not for 1,000 / 1,100', () => {
    // χ² = 2 × 100² / 1100 = 18.1818, p = erfc(sqrt(18.1818/2)) = 2.0079e-5 < 0.001.
    expect(sampleRatioPValue([1000, 1200], [50, 50])).toBeCloseTo(2.0078656124266785e-5, 8);
    // χ² = 2 × 50² / 1050 = 4.7619, p = erfc(sqrt(2.38095)) = 0.0290963 ≥ 0.001.
    expect(sampleRatioPValue([1000, 1100], [50, 50])).toBeCloseTo(0.02909633174125221, 6);
  });

  it('takes uneven weights and three arms', () => {
    // 700/300 at 70/30 is exact: χ² = 0, p = 1.
    expect(sampleRatioPValue([700, 300], [70, 30])).toBe(1);
    // 340/330/330 at 34/33/33: χ² = 0 too.
    expect(sampleRatioPValue([340, 330, 330], [34, 33, 33])).toBe(1);
  });
});

describe('power calculation', () => {
  it('gives the visitors per arm of the textbook formula', () => {
    // (1.959964 + 0.841621)² × (0.05·0.95 + 0.06·0.94) / 0.01² = 7.848879 × 1039 = 8,154.98 → 8,155.
    expect(visitorsPerArm(0.05, 0.2)).toBe(8155);
  });
});

/** Mulberry32: a small seeded generator, so the simulation gives the same figures on every run. */
function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('A/A simulation: 1,000 experiments read every day for 4 weeks', () => {
  // Both arms the same page: 100 visitors an arm a day, each a lead with probability 5 %, a lead sold
  // with probability 40 % at $5–$40 (revenue per visitor is skewed: most visitors are worth 0). Planned
  // size: the 4 weeks' 5,600 visitors. A "false winner" is an experiment whose interval excluded no
  // change at any of its 28 daily reads — what an operator refreshing the dashboard would have acted on.
  const EXPERIMENTS = 1000;
  const DAYS = 28;
  const PER_DAY = 100;
  const planned = DAYS * PER_DAY * 2;

  function simulate(metric: 'lead_rate' | 'revenue') {
    const random = mulberry32(metric === 'lead_rate' ? 48 : 4848);
    let sequentialWinners = 0;
    let fixedWinners = 0;
    let fixedAtPlan = 0;
    for (let e = 0; e < EXPERIMENTS; e++) {
      const arms = [
        { n: 0, sum: 0, sumSquares: 0 },
        { n: 0, sum: 0, sumSquares: 0 },
      ];
      let sequential = false;
      let fixed = false;
      for (let day = 1; day <= DAYS; day++) {
        for (const arm of arms) {
          for (let v = 0; v < PER_DAY; v++) {
            arm.n += 1;
            if (random() >= 0.05) continue;
            const x = metric === 'lead_rate' ? 1 : random() < 0.4 ? 500 + Math.floor(random() * 3501) : 0;
            arm.sum += x;
            arm.sumSquares += x * x;
          }
        }
        const c = compare(arms[0] as ArmSummary, arms[1] as ArmSummary, planned);
        if (!c) continue;
        const excludesZero = (iv: { low: number; high: number }) => iv.low > 0 || iv.high < 0;
        if (excludesZero(c.sequential.absolute)) sequential = true;
        if (excludesZero(c.fixed.absolute)) fixed = true;
        if (day === DAYS && excludesZero(c.fixed.absolute)) fixedAtPlan += 1;
      }
      if (sequential) sequentialWinners += 1;
      if (fixed) fixedWinners += 1;
    }
    return {
      sequential: sequentialWinners / EXPERIMENTS,
      fixedPeeking: fixedWinners / EXPERIMENTS,
      fixedOnce: fixedAtPlan / EXPERIMENTS,
    };
  }

  it('keeps the always-valid interval’s false winners at or below 5 % (lead rate)', () => {
    const rates = simulate('lead_rate');
    console.info('A/A lead rate, false-winner rates:', rates);
    expect(rates.sequential).toBeLessThanOrEqual(0.05);
    // The textbook interval read daily declares far more: the reason the sequential one exists.
    expect(rates.fixedPeeking).toBeGreaterThan(rates.sequential * 2);
    // Read once at the planned size it holds its 5 % (binomial sd of 1,000 draws ≈ 0.7 points).
    expect(rates.fixedOnce).toBeLessThan(0.075);
  });

  it('keeps the always-valid interval’s false winners at or below 5 % (revenue per visitor)', () => {
    const rates = simulate('revenue');
    console.info('A/A revenue per visitor, false-winner rates:', rates);
    expect(rates.sequential).toBeLessThanOrEqual(0.05);
    expect(rates.fixedPeeking).toBeGreaterThan(rates.sequential * 2);
  });
});
