// The API's values as a bookkeeper reads them on screen. The API and the
// commands keep the spec's values (uncategorized, manual_csv...); the screens
// show these words. Plain data (bundled into the screens).
import type { TransactionOrigin, TransactionSource, TransactionStatus } from '../../db/values';
import type { EvidenceItem } from '../main/ledger/proposals/kinds/categorization';

export const STATUS_LABELS: Record<TransactionStatus, string> = {
  uncategorized: 'Uncategorized',
  matched: 'Categorized',
  receipt_missing: 'Needs a receipt',
  agent_suggested: 'Agent suggested (legacy)',
  reconciled: 'Reconciled',
};

export const SOURCE_LABELS: Record<TransactionSource, string> = {
  bankfeed: 'Bank feed',
  paymentproc: 'Payment processor',
  manual_csv: 'Imported or entered',
};

/** How a row came to be: what the register shows in place of the spec's source. */
export const ORIGIN_LABELS: Record<TransactionOrigin, string> = {
  feed: 'Bank feed',
  import: 'Imported',
  manual: 'Entered by hand',
  agent: 'Journal entry',
  journal: 'Manual journal',
};

/** A proposal's evidence, by its type (the API's `evidence[].type`). */
export const EVIDENCE_LABELS: Record<EvidenceItem['type'], string> = {
  counterparty_match: 'Counterparty match',
  rule: 'Rule',
  historical: 'Earlier categorizations',
  keyword: 'Keyword',
  receipt: 'Receipt',
};

export const label = <K extends string>(labels: Record<K, string>, value: K | string): string => (labels as Record<string, string>)[value] ?? value;

/** What a filed period's tax return says of itself, on screen and in the command alike (issue 43). */
export const filedWords = (f: { filedAt: string; filedBy: string; correctedSince: number }): string =>
  `Filed ${f.filedAt.slice(0, 10)} by ${f.filedBy}: the figures as filed.${f.correctedSince ? ` ${f.correctedSince} of its row(s) corrected since: the differences are in a later return.` : ''}`;
