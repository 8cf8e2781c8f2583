import type { Attribution } from '@uf/shared/attribution';
import { type Channel, deriveChannel, reportedSource } from '@uf/shared/channel';
import { normaliseReferrer } from '@uf/shared/referrer';

/**
 * The channel and reported source of a visit (issue 15): from its UTM parameters and click ids, and the
 * landing referrer the browser kept for the session, else the referrer host of the request at hand.
 * One function for analytics events and website leads, so both report a visit the same way.
 */
export function visitAttribution(
  attribution: Attribution,
  fallbackReferrerHost: string,
  ownHost: string | undefined,
): { channel: Channel; source: string } {
  const referrerHost = attribution.landingReferrer
    ? normaliseReferrer(attribution.landingReferrer, ownHost).host
    : fallbackReferrerHost;
  return {
    channel: deriveChannel({ attribution, referrerHost }),
    source: reportedSource(attribution, referrerHost),
  };
}
