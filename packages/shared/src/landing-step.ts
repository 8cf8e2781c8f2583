// The landing page's steps as the server renders them for a visitor whose browser posted the lead form
// itself (no app script ran: blocked, failed, or not loaded yet; ADR 057). The server answers `POST /`
// with the landing page in the step it reached, and writes the step into the page
// (`<meta name="landing-step">`) so the app, when it runs, takes over that very step.

/** A message shown on the page where the app would show a toast (spec §8's public toasts). */
export type LandingAlert = { title: string; message: string };

export type LandingStep =
  /** The form again: what was entered (consent unticked), the spec's messages under each field. */
  | {
      step: 'form';
      values: Record<string, string>;
      errors: Record<string, string>;
      alert?: LandingAlert;
      /** The visit's campaign as first posted (the page's own URL has lost its query by then). */
      attribution?: Record<string, string>;
      /** Issue 33: the correction of a likely e-mail typo ("Did you mean …?"). */
      emailSuggestion?: string;
    }
  /** The lead is stored: the beneficiary question as a plain form. */
  | { step: 'beneficiary'; leadId: string; state: string | null; alert?: LandingAlert }
  /** The Congratulations screen. */
  | { step: 'done'; leadId: string; state: string | null };

export const LANDING_STEP_META = 'landing-step';

/** Names of the posted forms' fields beside the lead's own (`formStep` says which form was sent). */
export const LANDING_FORM_FIELDS = {
  step: 'formStep',
  leadId: 'leadId',
  beneficiary: 'beneficiary',
  skip: 'skip',
  attribution: 'attribution',
} as const;
