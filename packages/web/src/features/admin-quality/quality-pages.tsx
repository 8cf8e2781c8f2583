import { QUALITY_PATHS } from './quality-links';
import { QualitySettingsPage } from './quality-settings-page';
import { ReviewQueuePage } from './review-queue-page';

// The lead-quality screens (issue 33), loaded on their own (lazily, by the lead pages' route component)
// only when one is opened: the review queue and the settings.

export function QualityPages({ path }: { path: string }) {
  return path === QUALITY_PATHS.settings ? <QualitySettingsPage /> : <ReviewQueuePage />;
}
