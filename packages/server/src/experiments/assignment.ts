import { createHash } from 'node:crypto';
import type { ArmContent, ExperimentArm } from '@uf/shared/experiments';

// Which arm a visitor sees (issue 48, ADR 075): a deterministic hash of the experiment's seed, the day and
// the cookieless visitor id the analytics already derive (no cookie of our own). The same visitor on the
// same day always gets the same arm, on every replica, with nothing stored; a new seed reshuffles
// everyone. The day is in the hash as well as in the visitor id (whose salt is the day's): the arm never
// depends on a salt staying secret.

/** A point in [0, 100) from the first 48 bits of SHA-256(seed, day, visitor). */
export function bucketOf(seed: string, day: string, visitorId: string): number {
  const digest = createHash('sha256').update(`${seed}\u0000${day}\u0000${visitorId}`).digest();
  return (digest.readUIntBE(0, 6) / 2 ** 48) * 100;
}

/** The arm whose share of [0, 100), in the arms' order by their weights, holds the visitor's point. */
export function armFor<A extends Pick<ExperimentArm, 'weight'>>(
  arms: readonly A[],
  seed: string,
  day: string,
  visitorId: string,
): A {
  const point = bucketOf(seed, day, visitorId);
  let edge = 0;
  for (const arm of arms) {
    edge += arm.weight;
    if (point < edge) return arm;
  }
  // Weights sum to 100 (validated): only rounding at the very top lands here.
  return arms[arms.length - 1] as A;
}

/**
 * The content's fingerprint, recorded with each consent receipt: SHA-256 of its slots as JSON in the
 * slots' fixed order (so the same content always gives the same hash, whatever order it was sent in).
 */
export function contentHash(content: ArmContent): string {
  const ordered = {
    eyebrow: content.eyebrow ?? null,
    headline: content.headline ?? null,
    subheadline: content.subheadline ?? null,
    heroButton: content.heroButton ?? null,
    formFirst: content.formFirst ?? null,
  };
  return createHash('sha256').update(JSON.stringify(ordered)).digest('hex');
}
