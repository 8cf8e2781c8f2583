import { LANDING_STEP_META, type LandingStep } from '@uf/shared/landing-step';
import { createContext, useContext, useEffect } from 'react';

// The step the server rendered the landing page in after the browser posted its form itself (ADR 057):
// given to the app by the server's render (entry-server.tsx) and, in the browser, read from the page's
// `<meta name="landing-step">`, so that hydration renders exactly what the server did.

export const LandingStepContext = createContext<LandingStep | null>(null);

/** The document's landing step, if the server wrote one. */
export function readLandingStep(): LandingStep | null {
  if (typeof document === 'undefined') return null;
  const content = document.querySelector(`meta[name="${LANDING_STEP_META}"]`)?.getAttribute('content');
  if (!content) return null;
  try {
    return JSON.parse(content) as LandingStep;
  } catch {
    return null;
  }
}

let taken = false;

/** The server's step for the landing page's first render in this document; later visits start afresh. */
export function useServerLandingStep(): LandingStep | null {
  const step = useContext(LandingStepContext);
  const current = taken ? null : step;
  useEffect(() => {
    taken = true;
  }, []);
  return current;
}
