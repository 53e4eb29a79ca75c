// How a person last left the Practice screen (issue 55): whose organizations
// (all, theirs, one person's), whether only those needing attention, and the
// sort. Kept on the server so it follows them to any browser or window; the
// machine's owner (no person) keeps one too, under ''.
import * as z from 'zod';
import { nowIso } from '../core/clock';
import type { Ledger } from '../core/storage';
import { PRACTICE_COLUMN_IDS } from './columns';

/** What a row sorts by: the organization's name, its bookkeeper's or reviewer's name, or a column's figure. */
export const PRACTICE_SORTS = ['name', 'bookkeeper', 'reviewer', ...PRACTICE_COLUMN_IDS] as [string, ...string[]];

export const PracticeChoice = z.strictObject({
  who: z
    .union([z.enum(['all', 'mine']), z.string().trim().min(3).max(254)])
    .default('all')
    .describe("Whose organizations: all, mine (those I am the bookkeeper or reviewer of), or a person's id or email"),
  attention: z.boolean().default(false).describe('Only those needing attention (any figure in red)'),
  sort: z
    .enum(PRACTICE_SORTS)
    .default('name')
    .describe(`Sorted by: ${PRACTICE_SORTS.join(', ')}`),
  descending: z.boolean().default(false).describe('Largest (or latest) first'),
});
export type PracticeChoice = z.output<typeof PracticeChoice>;

export const DEFAULT_CHOICE: PracticeChoice = PracticeChoice.parse({});

/** The kept choice; one kept by an older build (a column since gone) falls back to the default. */
export async function keptChoice(ledger: Ledger, holder: string): Promise<PracticeChoice> {
  const json = (await ledger.stmt('SELECT choice FROM practice_choices WHERE holder = ?').pluck().get(holder)) as string | undefined;
  if (!json) return DEFAULT_CHOICE;
  const parsed = PracticeChoice.safeParse(JSON.parse(json));
  return parsed.success ? parsed.data : DEFAULT_CHOICE;
}

export async function keepChoice(ledger: Ledger, holder: string, choice: PracticeChoice): Promise<PracticeChoice> {
  await ledger.write(() =>
    ledger
      .stmt(
        'INSERT INTO practice_choices (holder, choice, updated_at) VALUES (?, ?, ?) ON CONFLICT (holder) DO UPDATE SET choice = excluded.choice, updated_at = excluded.updated_at',
      )
      .run(holder, JSON.stringify(choice), nowIso()),
  );
  return choice;
}
