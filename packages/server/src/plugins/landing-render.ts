import type { ArmContent } from '@uf/shared/experiments';
import type { LandingStep } from '@uf/shared/landing-step';

// The landing page renders the SPA plugin (spa.ts) decorates the server with, declared on their own so a
// caller's types (the experiments router, read alone by the web's typecheck) need not load the plugin's.

declare module 'fastify' {
  interface FastifyInstance {
    /** The landing page rendered on the server in a step (ADR 057); null when the app is not built. */
    renderLanding(step: LandingStep, formToken: string, copy?: ArmContent): Promise<string | null>;
    /**
     * The landing page as an arm with `content` would be served (issue 48), for the experiment editor's
     * preview: rendered each time (a draft's content changes as it is typed), never cached, with no form
     * token (a preview's lead would be nobody's). Null when the app is not built.
     */
    renderArmPreview(content: ArmContent): Promise<string | null>;
  }
}
