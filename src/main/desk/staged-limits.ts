// How much may be staged (issue 51): one upload's limit, and the bytes of
// uploads one person and one organization keep staged at once, with their
// settings. Statements are small but for whole-history exports: the
// benchmark's 1,000,000-row CSV is ~50 MB, a bank's OFX of 100,000 rows ~30 MB;
// receipts (20 MB, sent apart) and logos (1 MB) are far below. A person's quota
// is counted within an organization: row-level security keeps one
// organization's staged rows from every other's, so no count crosses them.
import { LedgerError } from '../ledger/core/errors';
import type { StagingQuotas } from '../ledger/staging/staged';

/** Staged files are kept a day: read back until then, swept after (staged-sweep.ts). */
export const STAGED_TTL_MS = 24 * 60 * 60 * 1000;

const MB = 2 ** 20;

export interface StagingLimits {
  /** One upload's bytes at most. */
  uploadBytes: number;
  /** Bytes of uploads a person (and an organization) keeps staged at once. */
  quotas: StagingQuotas;
}

export const DEFAULT_STAGING_LIMITS: StagingLimits = { uploadBytes: 128 * MB, quotas: { person: 256 * MB, organization: 512 * MB } };

/** The settings, in MB (2^20 bytes), each a whole number from 1. */
export const STAGING_SETTINGS = {
  uploadBytes: 'LEDGERDESK_UPLOAD_MAX_MB',
  person: 'LEDGERDESK_STAGED_PER_PERSON_MB',
  organization: 'LEDGERDESK_STAGED_PER_ORG_MB',
} as const;

/** The limits the environment sets, else the defaults; a setting that is not a whole number of MB from 1 is refused, named. */
export function stagingLimits(env: NodeJS.ProcessEnv = process.env): StagingLimits {
  const read = (name: string, fallback: number): number => {
    const text = env[name]?.trim();
    if (!text) return fallback;
    if (!/^\d{1,7}$/.test(text) || Number(text) < 1)
      throw new LedgerError('validation_failed', `${name} must be a whole number of MB from 1 (it is "${text}").`, [{ field: name, message: 'not a whole number of MB from 1' }]);
    return Number(text) * MB;
  };
  const d = DEFAULT_STAGING_LIMITS;
  return {
    uploadBytes: read(STAGING_SETTINGS.uploadBytes, d.uploadBytes),
    quotas: { person: read(STAGING_SETTINGS.person, d.quotas.person), organization: read(STAGING_SETTINGS.organization, d.quotas.organization) },
  };
}

/** The limits an operation works under: its server's (read once at start), else the environment's. */
export const stagingLimitsOf = (ctx: { staging?: StagingLimits }): StagingLimits => ctx.staging ?? stagingLimits();

/** Refuses an upload once it has passed its limit (413), naming the limit. */
export function tooLarge(received: number, limit: number): void {
  if (received > limit)
    throw new LedgerError(
      'payload_too_large',
      `An upload may be at most ${limit / MB} MB (this one is larger): split the file, or ask whoever runs the server to raise ${STAGING_SETTINGS.uploadBytes}.`,
      {
        limit,
        received,
      },
    );
}
