// The other side of an entry, as the general ledger shows it beside a
// posting: for a money account's row, where the money went (a category,
// "Split: ...", "Transfer to" or "from" the other account, uncategorized); for
// a line, the money account whose row it balances. Read for one page at a time.
import { anyOf } from '../core/dialect';
import type { Ledger } from '../core/sqlite/open';
import { IN_TRANSIT } from '../transfers/transfers';
import { SUSPENSE_NAME } from './positions';
import { TAX_CONTROL } from '../tax/lines';
import { goesAgainst } from '../../../shared/split-parts';
import { journalNumberSql } from '../journals/numbers';

interface PostingKey {
  seq: number;
  position: number;
  account_seq: number;
}

interface PageLine {
  transaction_seq: number;
  position: number;
  kind: string;
  category: string | null;
  account: string | null;
  counterpart_seq: number | null;
  amount_minor: number;
  journal: string | null;
}

const key = (seq: number, position: number) => `${seq}:${position}`;

export async function otherSides(ledger: Ledger, side: 'money' | 'line', postings: readonly PostingKey[]): Promise<Map<string, string>> {
  const seqs = [...new Set(postings.map((p) => p.seq))];
  const out = new Map<string, string>();
  if (!seqs.length) return out;
  const accounts = new Map(
    (await ledger.rows<{ seq: number; name: string }>(`SELECT seq, name FROM accounts WHERE seq ${anyOf(ledger)}`, [...new Set(postings.map((p) => p.account_seq))])).map((a) => [
      a.seq,
      a.name,
    ]),
  );
  const lines = await ledger.rows<PageLine>(
    `SELECT l.transaction_seq, l.position, l.kind, c.name AS category, a.name AS account, l.counterpart_seq, l.amount_minor,
       CASE l.kind WHEN 'journal' THEN (SELECT ${journalNumberSql('j')} FROM transactions t JOIN journals j ON j.seq = t.journal_seq WHERE t.seq = l.transaction_seq) END AS journal
     FROM lines l LEFT JOIN categories c ON c.seq = l.category_seq LEFT JOIN accounts a ON a.seq = l.account_seq
     WHERE l.transaction_seq ${anyOf(ledger)} ORDER BY l.transaction_seq, l.position`,
    seqs,
  );
  const byRow = new Map<number, PageLine[]>();
  for (const l of lines) (byRow.get(l.transaction_seq) ?? byRow.set(l.transaction_seq, []).get(l.transaction_seq)!).push(l);
  for (const p of postings) {
    const own = accounts.get(p.account_seq) ?? '';
    if (side === 'line') {
      const line = byRow.get(p.seq)?.find((l) => l.position === p.position);
      // A transfer line's amount is the opposite of its row's: positive, the money went out of `own`.
      const transit = line?.kind === 'transfer' ? (line.amount_minor > 0 ? [own, line.account] : [line.account, own]).join(' -> ') : null;
      out.set(key(p.seq, p.position), transit ? `${transit}${line!.counterpart_seq === null ? ` (${IN_TRANSIT.toLowerCase()})` : ''}` : own);
      continue;
    }
    const mine = byRow.get(p.seq) ?? [];
    const parts = mine.filter((l) => l.kind === 'category');
    const [only] = mine;
    // The row's amount is minus its lines' sum; a part against it (a refund inside a payment) is marked.
    const rowMinor = -mine.reduce((s, l) => s + l.amount_minor, 0);
    const text =
      parts.length > 1
        ? `Split: ${parts.map((l) => `${l.category}${goesAgainst(rowMinor, -l.amount_minor) ? ' (against the row)' : ''}`).join(', ')}`
        : only?.kind === 'transfer'
          ? `Transfer ${only.amount_minor > 0 ? 'to' : 'from'} ${only.account}${only.counterpart_seq === null ? ` (${IN_TRANSIT.toLowerCase()})` : ''}`
          : parts.length === 1
            ? (parts[0].category ?? '')
            : only?.kind === 'tax'
              ? TAX_CONTROL
              : only?.kind === 'journal'
                ? `Journal ${only.journal}`
                : SUSPENSE_NAME;
    out.set(key(p.seq, p.position), text);
  }
  return out;
}
