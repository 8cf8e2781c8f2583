import { isbot } from 'isbot';

// Visitors we do not count. Each reason has its own counter so an operator can see what is dropped.
export const DROP_REASONS = ['missing_user_agent', 'headless_browser', 'bot'] as const;
export type DropReason = (typeof DROP_REASONS)[number];

// Automation that presents itself as a browser: headless Chrome/Firefox, PhantomJS, test drivers and
// page auditors. isbot lists some of these too; checking them first gives them their own reason.
const HEADLESS = /headless|phantomjs|slimerjs|puppeteer|playwright|selenium|webdriver|lighthouse|cypress/i;

export type VisitorHints = {
  userAgent: string | undefined;
  /** Chromium's client hint brand list; headless Chromium names itself here as well. */
  secChUa?: string | undefined;
};

/** Why this request should not be counted, or null for an ordinary browser. */
export function dropReason({ userAgent, secChUa }: VisitorHints): DropReason | null {
  const ua = userAgent?.trim() ?? '';
  if (!ua) return 'missing_user_agent';
  if (HEADLESS.test(ua) || (secChUa !== undefined && /headless/i.test(secChUa))) return 'headless_browser';
  if (isbot(ua)) return 'bot';
  return null;
}
