import { defineEntity, p } from '@mikro-orm/core';

/** The lead-quality settings (issue 33, ADR 065): one row, its version bumped by every change. */
export const QualitySettingsRow = defineEntity({
  name: 'QualitySettingsRow',
  tableName: 'quality_settings',
  properties: {
    id: p.smallint().primary().default(1),
    settings: p.json<Record<string, unknown>>(),
    version: p.integer(),
    updatedBy: p.text(),
    updatedAt: p.datetime().onCreate(() => new Date()),
  },
});
