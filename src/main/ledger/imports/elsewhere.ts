// Rows already in another account: a file imported into the wrong account (a
// card's statement into the current account, a QIF's account made again under
// a new name) would count its money twice, and nothing in the file says so.
// Each section's new rows, or an even sample of a large file's, are looked up
// by date and amount (descriptions differ with a CSV's mapping) in the
// organization's other accounts of that currency, through the account, date
// and amount index: a few dozen lookups per account, whatever the file's size.
// When most of them are in one account, the preview and the command say so.
// Next month's CSV of an account holds rows no account has yet: its header,
// the one another account's saved mapping was made for, says so instead.
import type { Ledger } from '../core/sqlite/open';
import { accountForHeaders, mappingOfAccount } from './mappings';
import type { LedgerRows } from './statement-rows';

/** What of a plan is looked at: the rows, those to import, each section's account and currency, a CSV's header. */
export interface ElsewhereScope {
  rows: LedgerRows;
  toImport: Int32Array;
  sections: readonly { row: { seq: number; name: string } | null; currency: string }[];
  headers?: string[];
}

/** Rows looked at per section. */
export const ELSEWHERE_SAMPLE = 40;
/** Fewer rows found than this is a coincidence (two coffees the same day), not a file in the wrong account. */
const AT_LEAST = 3;

export interface ElsewhereWarning {
  /** rows_in_other_account: most new rows are there; header_of_other_account: a CSV of that account's columns. */
  code: 'rows_in_other_account' | 'header_of_other_account';
  section: number;
  account: { id: string; name: string };
  /** Of the rows looked at (every new row of the section, or an even sample of many), how many that account holds. */
  found?: number;
  checked?: number;
  message: string;
}

/** Up to `n` positions spread evenly over `all`. */
function evenly(all: Int32Array, n: number): number[] {
  if (all.length <= n) return Array.from(all);
  return Array.from({ length: n }, (_, k) => all[Math.floor((k * all.length) / n)]);
}

export async function rowsElsewhere(ledger: Ledger, orgSeq: number, plan: ElsewhereScope): Promise<ElsewhereWarning[]> {
  const { rows: L, sections } = plan;
  const lookup = ledger.stmt('SELECT 1 FROM transactions WHERE account_seq = ? AND date = ? AND amount_minor = ? LIMIT 1');
  const out: ElsewhereWarning[] = [];
  for (const [section, s] of sections.entries()) {
    const fresh = plan.toImport.filter((i) => L.rows.section[i] === section);
    if (fresh.length < AT_LEAST) continue;
    const sample = evenly(fresh, ELSEWHERE_SAMPLE);
    const needed = Math.max(AT_LEAST, Math.floor(sample.length / 2) + 1);
    const others = await ledger.rows<{ seq: number; id: string; name: string }>(
      'SELECT seq, id, name FROM accounts WHERE org_seq = ? AND currency = ? AND seq <> ? ORDER BY seq',
      orgSeq,
      s.currency,
      s.row?.seq ?? -1,
    );
    let best: { account: { id: string; name: string }; found: number } | null = null;
    for (const a of others) {
      let found = 0;
      for (let k = 0; k < sample.length && found + sample.length - k >= needed; k++) {
        if (await lookup.get(a.seq, L.rows.date[sample[k]], L.amountMinor[sample[k]])) found++;
      }
      if (found >= needed && (!best || found > best.found)) best = { account: { id: a.id, name: a.name }, found };
    }
    if (!best) continue;
    const of = fresh.length > sample.length ? `${best.found} of ${sample.length} looked at` : `${best.found} of ${sample.length}`;
    out.push({
      code: 'rows_in_other_account',
      section,
      account: best.account,
      found: best.found,
      checked: sample.length,
      message: `These rows are already in "${best.account.name}" (${of}): is this the right account?`,
    });
  }
  return [...out, ...(await headerElsewhere(ledger, orgSeq, plan, out))];
}

/** A CSV of new rows whose header is another account's saved mapping's, into an account without one for it. */
async function headerElsewhere(ledger: Ledger, orgSeq: number, plan: ElsewhereScope, said: ElsewhereWarning[]): Promise<ElsewhereWarning[]> {
  const account = plan.sections[0]?.row;
  if (!plan.headers || !account || plan.toImport.length === 0 || (await mappingOfAccount(ledger, account.seq, plan.headers))) return [];
  const owner = await accountForHeaders(ledger, orgSeq, plan.headers);
  if (!owner || owner.seq === account.seq || said.some((w) => w.account.id === owner.id)) return [];
  return [
    {
      code: 'header_of_other_account',
      section: 0,
      account: { id: owner.id, name: owner.name },
      message: `This file's columns are those of "${owner.name}"'s statements (its saved CSV mapping), none of "${account.name}"'s yet: is this the right account?`,
    },
  ];
}
