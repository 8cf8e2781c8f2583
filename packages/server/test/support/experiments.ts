import type { ArmContent } from '@uf/shared/experiments';
import type { FastifyInstance } from 'fastify';

// Landing experiments in the integration tests (issue 48): a running two-arm experiment, and what a test
// reads off a served landing page.

/** The landing page's own headline (the control's). */
export const CONTROL_H1 = 'Find Out If Unclaimed Money Is Waiting For You';
export const OWED_H1 = 'Your State May Owe You Money';

/** Creates and starts "Headline" (lead rate, 2,000 planned): the control and `owed` with `owed`, 50/50. */
export async function startHeadlineExperiment(
  app: FastifyInstance,
  cookies: Record<string, string>,
  owed: ArmContent,
): Promise<string> {
  const created = await app.inject({
    method: 'POST',
    url: '/api/admin/experiments',
    cookies,
    payload: {
      name: 'Headline',
      primaryMetric: 'lead_rate',
      plannedVisitors: 2000,
      arms: [
        { key: 'control', name: 'Control', weight: 50, content: {} },
        { key: 'owed', name: 'Owed', weight: 50, content: owed },
      ],
    },
  });
  if (created.statusCode !== 201) throw new Error(`create: ${created.statusCode} ${created.body}`);
  const { id } = created.json() as { id: string };
  const started = await app.inject({ method: 'POST', url: `/api/admin/experiments/${id}/start`, cookies });
  if (started.statusCode !== 200) throw new Error(`start: ${started.statusCode} ${started.body}`);
  return id;
}

/** The page's <h1> text. */
export const h1Of = (html: string) => html.match(/<h1[^>]*>([^<]*)<\/h1>/)?.[1] ?? null;

/** The form token the page carries (the lead form's hidden field). */
export const tokenOf = (html: string) =>
  html.match(/<input type="hidden" name="formToken" form="lead-form" value="([^"]+)">/)?.[1] ?? '';
