// HMRC's open VAT obligations as its last answer said (issue 55: the Practice
// screen's next HMRC return, read without calling HMRC). Kept on the
// organization's connection row: each full list of open obligations (the fetch
// without dates, as the Tax screen makes) replaces them; a list for dates adds
// the open ones it names and drops those it says are fulfilled; a return HMRC
// accepted drops its period key. A copy of HMRC's answer, not a change to the
// books: no audit entry.
import { inList } from '../core/dialect';
import type { Ledger } from '../core/storage';

export interface KeptObligation {
  periodKey: string;
  start: string;
  end: string;
  due: string;
}

export interface KeptObligations {
  /** The open obligations, the soonest due first. */
  open: KeptObligation[];
  /** When HMRC last listed them. */
  fetchedAt: string;
}

const parse = (text: string | null): KeptObligation[] => (text ? (JSON.parse(text) as KeptObligation[]) : []);
const byDue = (a: KeptObligation, b: KeptObligation) => a.due.localeCompare(b.due) || a.start.localeCompare(b.start);

/** What HMRC listed, kept: `complete` where the list is every open obligation (asked for open ones, no dates). */
export async function keepObligations(
  ledger: Ledger,
  orgSeq: number,
  listed: (KeptObligation & { status: 'O' | 'F' })[],
  options: { complete: boolean; at: string },
): Promise<void> {
  if (ledger.readOnly) return; // a read replica's server keeps nothing; the primary's next fetch does
  await ledger.write(async () => {
    const row = (await ledger.stmt('SELECT open_obligations FROM hmrc_connections WHERE org_seq = ?').get(orgSeq)) as { open_obligations: string | null } | undefined;
    if (!row) return;
    const named = new Set(listed.map((o) => o.periodKey));
    const kept = options.complete ? [] : parse(row.open_obligations).filter((o) => !named.has(o.periodKey));
    const open = [...kept, ...listed.filter((o) => o.status === 'O').map(({ periodKey, start, end, due }) => ({ periodKey, start, end, due }))].sort(byDue);
    await ledger.stmt('UPDATE hmrc_connections SET open_obligations = ?, obligations_fetched_at = ? WHERE org_seq = ?').run(JSON.stringify(open), options.at, orgSeq);
  });
}

/** The open obligation a return HMRC accepted answered: no longer open (inside the acceptance's write). */
export async function fulfilObligation(ledger: Ledger, orgSeq: number, periodKey: string): Promise<void> {
  const row = (await ledger.stmt('SELECT open_obligations FROM hmrc_connections WHERE org_seq = ?').get(orgSeq)) as { open_obligations: string | null } | undefined;
  if (!row?.open_obligations) return;
  const open = parse(row.open_obligations).filter((o) => o.periodKey !== periodKey);
  await ledger.stmt('UPDATE hmrc_connections SET open_obligations = ? WHERE org_seq = ?').run(JSON.stringify(open), orgSeq);
}

/**
 * The open obligations as last fetched, of several organizations in one read (the Practice screen's), by org seq:
 * those connected to HMRC whose obligations were fetched; the others are left out.
 */
export async function keptObligationsOf(ledger: Ledger, orgSeqs: readonly number[]): Promise<Map<number, KeptObligations>> {
  const rows = await ledger.rows<{ org_seq: number; open_obligations: string | null; obligations_fetched_at: string | null }>(
    `SELECT org_seq, open_obligations, obligations_fetched_at FROM hmrc_connections WHERE ${inList(ledger, 'org_seq')} AND connected_at IS NOT NULL`,
    orgSeqs,
  );
  return new Map(rows.filter((r) => r.obligations_fetched_at).map((r) => [Number(r.org_seq), { open: parse(r.open_obligations), fetchedAt: r.obligations_fetched_at! }]));
}
