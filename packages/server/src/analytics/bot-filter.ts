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
  return isBotCached(ua) ? 'bot' : null;
}

// isbot's pattern is one large regular expression (a few % of the track route's CPU when run on every
// event). Visitors send few distinct user agents, each many times: remember the last answers, in a map
// that starts over when full so it never grows without bound.
const BOT_CACHE_SIZE = 2000;
const botCache = new Map<string, boolean>();
function isBotCached(ua: string): boolean {
  const known = botCache.get(ua);
  if (known !== undefined) return known;
  const answer = isbot(ua);
  if (botCache.size >= BOT_CACHE_SIZE) botCache.clear();
  botCache.set(ua, answer);
  return answer;
}
