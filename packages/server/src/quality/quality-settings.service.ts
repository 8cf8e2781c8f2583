import {
  DEFAULT_QUALITY_SETTINGS,
  QUALITY_REASONS,
  type QualitySettings,
  REASON_CODES,
} from '@uf/shared/quality';
import type { Pool } from 'pg';
import { recordAudit } from '../admin/audit.service';

// The lead-quality settings (issue 33): one row, versioned. Every replica reads them at most a couple of
// seconds stale (a change on this replica applies at once); each lead records the version it was
// judged by.

export type VersionedSettings = {
  settings: QualitySettings;
  version: number;
  updatedBy: string | null;
  updatedAt: Date | null;
};

/** The version of the defaults, before anyone saved settings. */
const DEFAULT_VERSION = 1;
const CACHE_MS = 2000;

function withDefaults(stored: Partial<QualitySettings>): QualitySettings {
  return {
    ...DEFAULT_QUALITY_SETTINGS,
    ...stored,
    // A code added by a later release takes its default action in settings saved before it.
    actions: { ...DEFAULT_QUALITY_SETTINGS.actions, ...(stored.actions ?? {}) },
  };
}

export function createQualitySettings(pool: Pool) {
  let cached: { at: number; value: Promise<VersionedSettings> } | undefined;

  async function read(): Promise<VersionedSettings> {
    const { rows } = await pool.query<{
      settings: Partial<QualitySettings>;
      version: number;
      updated_by: string;
      updated_at: Date;
    }>('select settings, version, updated_by, updated_at from quality_settings where id = 1');
    const row = rows[0];
    if (!row) {
      return {
        settings: DEFAULT_QUALITY_SETTINGS,
        version: DEFAULT_VERSION,
        updatedBy: null,
        updatedAt: null,
      };
    }
    return {
      settings: withDefaults(row.settings),
      version: row.version,
      updatedBy: row.updated_by,
      updatedAt: row.updated_at,
    };
  }

  return {
    /** The settings in force (cached for a moment: they are read for every batch of leads). */
    current(): Promise<VersionedSettings> {
      const now = Date.now();
      if (!cached || now - cached.at > CACHE_MS) {
        const value = read();
        cached = { at: now, value };
        // A failed read is not remembered: the next call tries again.
        value.catch(() => {
          if (cached?.value === value) cached = undefined;
        });
      }
      return cached.value;
    },
    /** Replaces the settings, bumps the version and records who did it. */
    async save(
      settings: QualitySettings,
      actor: { username: string; ipAddress: string | null },
    ): Promise<VersionedSettings> {
      const { rows } = await pool.query<{ version: number; updated_at: Date }>(
        `insert into quality_settings as q (id, settings, version, updated_by)
         values (1, $1, ${DEFAULT_VERSION + 1}, $2)
         on conflict (id) do update set settings = excluded.settings, version = q.version + 1,
           updated_by = excluded.updated_by, updated_at = now()
         returning version, updated_at`,
        [JSON.stringify(settings), actor.username],
      );
      const row = rows[0];
      if (!row) throw new Error('saving the quality settings returned no row');
      await recordAudit(pool, {
        actor: actor.username,
        action: 'quality.settings_changed',
        detail: { version: row.version, settings },
        ipAddress: actor.ipAddress,
      });
      const saved = { settings, version: row.version, updatedBy: actor.username, updatedAt: row.updated_at };
      cached = { at: Date.now(), value: Promise.resolve(saved) };
      return saved;
    },
  };
}

export type QualitySettingsStore = ReturnType<typeof createQualitySettings>;

/** The settings as the admin API answers them: with every code's default action and words. */
export function settingsAnswer(v: VersionedSettings) {
  return {
    ...v.settings,
    version: v.version,
    updatedBy: v.updatedBy,
    updatedAt: v.updatedAt ? v.updatedAt.toISOString() : null,
    reasons: REASON_CODES.map((code) => ({ code, ...QUALITY_REASONS[code] })),
  };
}
