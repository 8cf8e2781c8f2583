import type { Attribution } from './attribution';
import { DIRECT_REFERRER, UNKNOWN_REFERRER } from './referrer';

// The marketing channel of a visit (issue 15, ADR 055), derived on the server from the UTM parameters,
// the ad click ids and the landing referrer. The rules follow the shape of Google Analytics 4's
// "default channel group" (support.google.com/analytics/answer/9756891: paid media by medium, then
// the source's category) with its eight channels cut to the ones this product reports; the domain and
// source lists are a small, readable subset of GA4's source-category list
// (support.google.com/analytics/answer/9756891, "Source categories") plus the AI assistants that send
// traffic today (chatgpt.com adds utm_source=chatgpt.com to its links). Everything is lower case.

export const CHANNELS = [
  'Direct',
  'Organic Search',
  'Paid Search',
  'Organic Social',
  'Paid Social',
  'Email',
  'Referral',
  'AI Assistants',
] as const;
export type Channel = (typeof CHANNELS)[number];

/** Each category: source names an ad link may carry, and the domains (with their subdomains). */
type Category = { names: readonly string[]; domains: readonly string[] };

export const AI_ASSISTANTS: Category = {
  names: ['chatgpt', 'openai', 'perplexity', 'claude', 'gemini', 'copilot', 'deepseek', 'grok', 'meta.ai'],
  domains: [
    'chatgpt.com',
    'chat.openai.com',
    'perplexity.ai',
    'claude.ai',
    'gemini.google.com',
    'bard.google.com',
    'copilot.microsoft.com',
    'chat.deepseek.com',
    'grok.com',
    'meta.ai',
    'you.com',
    'phind.com',
    'poe.com',
  ],
};

export const SEARCH_ENGINES: Category = {
  names: ['google', 'bing', 'yahoo', 'duckduckgo', 'baidu', 'yandex', 'ecosia', 'brave', 'msn', 'aol'],
  domains: [
    'google.com',
    'bing.com',
    'search.yahoo.com',
    'duckduckgo.com',
    'baidu.com',
    'yandex.ru',
    'yandex.com',
    'ecosia.org',
    'search.brave.com',
    'msn.com',
    'search.aol.com',
    'startpage.com',
    'qwant.com',
  ],
};

export const SOCIAL_NETWORKS: Category = {
  names: [
    'facebook',
    'fb',
    'instagram',
    'ig',
    'meta',
    'twitter',
    'x',
    'linkedin',
    'reddit',
    'pinterest',
    'tiktok',
    'youtube',
    'snapchat',
    'threads',
    'nextdoor',
    'quora',
    'whatsapp',
  ],
  domains: [
    'facebook.com',
    'fb.com',
    'instagram.com',
    't.co',
    'twitter.com',
    'x.com',
    'linkedin.com',
    'lnkd.in',
    'reddit.com',
    'pinterest.com',
    'tiktok.com',
    'youtube.com',
    'snapchat.com',
    'threads.net',
    'nextdoor.com',
    'quora.com',
    'whatsapp.com',
  ],
};

export const WEBMAIL: Category = {
  names: ['email', 'e-mail', 'newsletter', 'mailchimp', 'klaviyo', 'sendgrid'],
  domains: ['mail.google.com', 'outlook.live.com', 'outlook.office.com', 'mail.yahoo.com', 'mail.aol.com'],
};

/** utm_medium values that mean the click was bought (GA4: cp*, ppc, retargeting, paid*). */
const PAID_MEDIUM = /^(.*cp.*|ppc|retargeting|paid.*|display|banner|sem)$/;
const SOCIAL_MEDIUM = /^(social|social-network|social-media|sm|social network|social media)$/;
const EMAIL_MEDIUM = /^(email|e-mail|e_mail|e mail|newsletter)$/;
/** Click ids only an ad click carries, by the network's kind. fbclid is left out: Facebook adds it to every outbound link, paid or not. */
const SEARCH_AD_CLICK_IDS = ['gclid', 'gbraid', 'wbraid', 'msclkid'] as const;
const SOCIAL_AD_CLICK_IDS = ['ttclid', 'li_fat_id'] as const;

/** A domain or one of its subdomains; google.<any tld> counts as google.com. */
function hostIn(host: string, domains: readonly string[]): boolean {
  const h = host.replace(/^www\./, '').replace(/^google\.[a-z.]+$/, 'google.com');
  return domains.some((d) => h === d || h.endsWith(`.${d}`));
}

function inCategory(category: Category, source: string, host: string): boolean {
  return (
    (source !== '' && (category.names.includes(source) || hostIn(source, category.domains))) ||
    (host !== '' && hostIn(host, category.domains))
  );
}

export type ChannelInput = {
  attribution: Attribution;
  /** The landing referrer's host without 'www.'; 'direct' or '' for none or the site itself. */
  referrerHost: string;
};

export function deriveChannel({ attribution: a, referrerHost }: ChannelInput): Channel {
  const source = (a.utm_source ?? '').toLowerCase();
  const medium = (a.utm_medium ?? '').toLowerCase();
  const host =
    referrerHost === DIRECT_REFERRER || referrerHost === UNKNOWN_REFERRER ? '' : referrerHost.toLowerCase();
  const social = inCategory(SOCIAL_NETWORKS, source, host);

  if (inCategory(AI_ASSISTANTS, source, host)) return 'AI Assistants';
  const searchAd = SEARCH_AD_CLICK_IDS.some((k) => a[k]);
  const socialAd = SOCIAL_AD_CLICK_IDS.some((k) => a[k]);
  if (PAID_MEDIUM.test(medium) || searchAd || socialAd) {
    return social || socialAd || (a.fbclid && !searchAd) ? 'Paid Social' : 'Paid Search';
  }
  if (EMAIL_MEDIUM.test(medium) || inCategory(WEBMAIL, source, host)) return 'Email';
  if (inCategory(SEARCH_ENGINES, source, host)) return 'Organic Search';
  if (social || SOCIAL_MEDIUM.test(medium) || a.fbclid) return 'Organic Social';
  if (host || source || medium || a.utm_campaign) return 'Referral';
  return 'Direct';
}

/** The source a visit is reported under: utm_source, else the referrer's host, else 'direct'. */
export function reportedSource(a: Attribution, referrerHost: string): string {
  if (a.utm_source) return a.utm_source;
  if (referrerHost && referrerHost !== UNKNOWN_REFERRER) return referrerHost;
  return DIRECT_REFERRER;
}
