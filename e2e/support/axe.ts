import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export type AxeViolation = {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
};

/**
 * Waits until nothing on the page is fading or sliding in: no finite animation or transition running (a
 * spinner's endless one aside), and every open dialog fully opaque up to the document. Between the steps
 * of Mantine's JS-driven transitions no animation runs while a dialog is still faint, and axe then reads
 * its text as low contrast.
 */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const moving = document
      .getAnimations()
      .some(
        (a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY,
      );
    if (moving) return false;
    for (const dialog of Array.from(document.querySelectorAll('[role="dialog"], [role="alertdialog"]')))
      for (let el: Element | null = dialog; el; el = el.parentElement)
        if (Number(getComputedStyle(el).opacity) < 1) return false;
    return true;
  });
}

/**
 * Runs axe-core in the page, once it has settled, with its default rule set (WCAG A/AA and best practices) and returns every
 * violation, whatever its impact (issue 16: zero of any impact on every page). A test expects the list
 * empty; a violation is fixed in the app, never by switching a rule off.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await settled(page);
  // Evaluated through the DevTools protocol, not as an inline <script>: the page's CSP forbids those.
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(ctx: Document): Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    const result = await axe.run(document);
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
  });
}

/** One line per violation, naming the elements: what a failing test prints. */
export const describeViolations = (violations: AxeViolation[]) =>
  violations.map((v) => `${v.impact} ${v.id}: ${v.help} ${JSON.stringify(v.nodes.map((n) => n.target))}`);

/** Expects axe to find nothing on the page once it has settled. */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  expect(describeViolations(await axeViolations(page))).toEqual([]);
}
