// Landing experiments (issue 48, ADR 075): the vocabulary without validation code, so the landing page's
// bundle can read an arm's copy without pulling zod in. The input schemas live in experiments.schema.ts,
// the answers in experiments.output.ts.

export const EXPERIMENT_PAGES = ['landing'] as const;
export type ExperimentPage = (typeof EXPERIMENT_PAGES)[number];

export const EXPERIMENT_STATUSES = ['draft', 'running', 'stopped'] as const;
export type ExperimentStatus = (typeof EXPERIMENT_STATUSES)[number];

/** What a visitor is worth, in three depths: a lead, an accepted lead, the money its sale kept. */
export const PRIMARY_METRICS = ['revenue_per_visitor', 'accepted_lead_rate', 'lead_rate'] as const;
export type PrimaryMetric = (typeof PRIMARY_METRICS)[number];

/**
 * The closed set of what an arm may change, each with its length limit. Nothing else can vary: the form's
 * fields, labels, the consent text and the legal links are the same in every arm (they are evidence).
 */
export const TEXT_SLOTS = {
  eyebrow: { max: 40, words: 'the small badge above the headline' },
  headline: { max: 90, words: 'the page’s one <h1>' },
  subheadline: { max: 300, words: 'the paragraph under the headline' },
  heroButton: { max: 40, words: 'the hero’s call to action' },
} as const;
export type TextSlot = keyof typeof TEXT_SLOTS;
export const SLOT_NAMES = [...(Object.keys(TEXT_SLOTS) as TextSlot[]), 'formFirst'] as const;

/** An arm's content: each slot optional; an empty object is the page as it is. */
export type ArmContent = Partial<Record<TextSlot, string>> & {
  /** On a phone, the form comes before the explanation (true) or after it (false). */
  formFirst?: boolean;
};

export type ExperimentArm = { key: string; name: string; weight: number; content: ArmContent };

export const MIN_ARMS = 2;
export const MAX_ARMS = 4;
export const ARM_KEY_PATTERN = /^[a-z0-9][a-z0-9-]{0,31}$/;

/** The rule the results wait for before a verdict (issue 48). */
export const ENOUGH_DATA = { visitorsPerArm: 100, conversionsPerArm: 25, days: 7 } as const;
/** Below this p-value the exposures' split is too far from the weights to trust (Pearson chi-square). */
export const SRM_P_VALUE_WARNING = 0.001;

/** The admin query parameter that previews an arm on the landing page without counting it. */
export const ARM_PREVIEW_PARAM = 'arm';
