// A journal's audit entry (issue 43): its number, date, narration and total,
// written in the same transaction as the journal.
import { appendAudit, type Human } from '../access/audit';
import { organizationBySeq } from '../access/organizations';
import type { Ledger } from '../core/sqlite/open';
import { fromMinor } from '../core/money';
import { journalBySeq } from './journals';
import { totalDebit } from './lines';
import { journalNumber } from './numbers';
import { storedPostings } from './write';

export async function journalAudit(ledger: Ledger, orgSeq: number, actor: Human, seq: number, verb: string, extra = ''): Promise<void> {
  const j = await journalBySeq(ledger, seq);
  const currency = (await organizationBySeq(ledger, orgSeq)).currency;
  const total = totalDebit(await storedPostings(ledger, seq));
  await appendAudit(ledger, orgSeq, actor, {
    action: `journal.${verb}`,
    targetType: 'journal',
    targetId: j.id,
    summary: `Journal ${journalNumber(j.number)} ${j.date} "${j.narration}": ${fromMinor(total, currency).toFixed(2)} ${currency}${extra}`,
  });
}
