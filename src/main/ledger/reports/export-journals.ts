// Manual journals and the opening entry for the exports (issue 43): each
// journal one entry, its postings as they are and its money accounts' lines
// as money postings (the clearing posting names its account; its row in the
// register is not written again), in the organization's currency.
import type { Ledger } from '../core/sqlite/open';
import type { LineKind } from '../transactions/lines';
import { journalNumberSql } from '../journals/numbers';

export interface ExportJournalLine {
  /** 'journal': a money account's line (accountId); else as a document's posting. */
  kind: LineKind;
  category: string | null;
  accountId: string | null;
  amountMinor: number;
  memo: string | null;
  /** A money account's line whose row a reconciliation cleared. */
  reconciled: boolean;
}

export interface ExportJournalEntry {
  id: string;
  date: string;
  description: string;
  lines: ExportJournalLine[];
}

/** The journals dated in the period, each one entry, in date order. */
export async function journalEntries(ledger: Ledger, orgSeq: number, period: { from?: string; to?: string }): Promise<ExportJournalEntry[]> {
  const rows = await ledger.rows<{
    journal_seq: number;
    id: string;
    date: string;
    description: string;
    kind: LineKind;
    category: string | null;
    account_id: string | null;
    amount_minor: number;
    memo: string | null;
    reconciled: number | null;
  }>(
    `SELECT j.seq AS journal_seq, j.id, j.date, CASE WHEN j.number IS NULL THEN j.narration ELSE ${journalNumberSql('j')} || ' ' || j.narration END AS description, p.kind, c.name AS category, a.id AS account_id, p.amount_minor, p.memo,
       (SELECT max(t.reconciled) FROM transactions t WHERE t.journal_seq = j.seq AND t.account_seq = p.account_seq AND t.amount_minor = p.amount_minor) AS reconciled
     FROM journals j JOIN postings p ON p.journal_seq = j.seq LEFT JOIN categories c ON c.seq = p.category_seq LEFT JOIN accounts a ON a.seq = p.account_seq
     WHERE j.org_seq = ? AND j.date >= ? AND j.date <= ? ORDER BY j.date, j.seq, p.seq`,
    orgSeq,
    period.from ?? '0001-01-01',
    period.to ?? '9999-12-31',
  );
  const out: (ExportJournalEntry & { seq: number })[] = [];
  for (const r of rows) {
    if (out.at(-1)?.seq !== r.journal_seq) out.push({ seq: r.journal_seq, id: r.id, date: r.date, description: r.description, lines: [] });
    out.at(-1)!.lines.push({ kind: r.kind, category: r.category, accountId: r.account_id, amountMinor: r.amount_minor, memo: r.memo, reconciled: r.reconciled === 1 });
  }
  return out.map(({ seq: _seq, ...e }) => e);
}
