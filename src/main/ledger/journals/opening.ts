// The opening entry (issue 43): one per organization, at the conversion date
// (books taken over mid-year start there), holding every balance-sheet
// account's figure then: dated the day before (issue 50), the close of the
// last day of the books before, as Xero dates conversion balances, so that the
// revenue and expenses to date it may carry fall before these books' first
// period (and the balance sheet of that day holds the whole entry). Its lines are the money accounts' opening balances
// (kept on each account, as before: its register, balances and
// reconciliations count from them), the categories' figures and the tax owed
// (postings of a journal of kind 'opening'), and the open invoices and bills
// (documents: opening-documents.ts). What the lines leave over is the opening
// balances' equity, "Opening balances" on the balance sheet, as an account's
// opening balance always was: setting the entry asks that debits equal
// credits, or that the difference be put there knowingly (balanceToEquity).
// Setting it again replaces it: its lines and the documents nothing settled
// since; a money account's opening balance changes only where it is named.
import { appendAudit, type Human } from '../access/audit';
import { assertOpen } from '../access/closing';
import { organizationBySeq } from '../access/organizations';
import { updateAccount } from '../accounts/accounts';
import type { Ledger } from '../core/sqlite/open';
import { invalid } from '../core/errors';
import { fromMinor } from '../core/money';
import { withCache } from '../core/cache';
import { BULK_DOCUMENTS } from '../documents/many';
import { Valuer } from '../rates/valuer';
import { postInBulk } from '../totals/bulk';
import type { Track } from '../totals/declared';
import { isCalendarDate } from '../../../shared/dates';
import { resolveLines, type JournalLineInput, type PostingDraft, type StoredLine } from './lines';
import { assertNumbersFree, balancesDate, checkOpeningDocuments, writeOpeningDocuments, type OpeningDocument, type OpeningDocumentInput } from './opening-documents';
import { planDocuments, removeDocuments, retaxDocuments } from './opening-kept';
import { taxSettings } from '../tax/periods';
import { showOpeningBalances, type OpeningBalances } from './opening-show';
import { openingTaxPeriod, replaceOpeningReturn, type TaxPeriodInput } from './opening-tax';
import { insertPostings } from './write';
import type { JournalRow } from './journals';
import { newTimeOrderedId, nowIso } from '../core/clock';

export interface OpeningInput {
  /** The conversion date: the day these books start (the entry is dated the day before). */
  date: string;
  /** Money accounts (their opening balance, in their currency), categories of any type, `tax-control`: debit positive. */
  lines: readonly JournalLineInput[];
  invoices?: readonly OpeningDocumentInput[];
  bills?: readonly OpeningDocumentInput[];
  /** The return the tax owed was filed in before these books (null: none); default: the tax period ending the day before. */
  taxReturn?: TaxPeriodInput | null;
  /** Put what debits and credits leave over to Opening balances (equity) rather than refuse. */
  balanceToEquity?: boolean;
}

export const openingRow = async (ledger: Ledger, orgSeq: number): Promise<JournalRow | undefined> =>
  (await ledger.stmt("SELECT * FROM journals WHERE org_seq = ? AND kind = 'opening'").get(orgSeq)) as JournalRow | undefined;

/** Lines naming one account twice are refused: its figure is one. */
function assertOnce(lines: readonly StoredLine[]): void {
  const seen = new Set<string>();
  lines.forEach((l, i) => {
    const key = `${l.kind}:${l.seq}`;
    if (seen.has(key)) throw invalid([{ field: `lines[${i}].account`, message: 'names an account another line names: give its figure once' }]);
    seen.add(key);
  });
}

/**
 * What the whole entry leaves over in the base currency (debit positive), once it is as given, valued on its date:
 * an open document's VAT due when paid is the tax control account's, the rest what it owes.
 */
async function leftOver(
  ledger: Ledger,
  orgSeq: number,
  dated: string,
  lines: readonly StoredLine[],
  docs: readonly OpeningDocument[],
  valuer: Valuer,
  cash: boolean,
): Promise<number> {
  const named = new Map(lines.filter((l) => l.kind === 'money').map((l) => [l.seq!, l.amountMinor]));
  let sum = 0;
  for (const a of await ledger.rows<{ seq: number; currency: string; opening_balance_minor: number; opening_date: string | null }>(
    'SELECT seq, currency, opening_balance_minor, opening_date FROM accounts WHERE org_seq = ?',
    orgSeq,
  )) {
    const minor = named.get(a.seq) ?? a.opening_balance_minor;
    sum += minor === 0 ? 0 : await valuer.value(minor, a.currency, named.has(a.seq) ? dated : (a.opening_date ?? dated));
  }
  for (const l of lines) if (l.kind !== 'money') sum += l.amountMinor;
  for (const d of docs) {
    const s = d.kind === 'bill' ? -1 : 1;
    sum += s * (await valuer.value(d.minor, d.currency, dated));
    if (d.taxMinor !== 0 && (d.vatWhenPaid ?? cash)) sum -= s * (await valuer.value(d.taxMinor, d.currency, dated));
  }
  return sum;
}

/** The money accounts named: their opening balance and date (the entry's), each change audited as an account's edit is. */
async function setMoneyOpenings(ledger: Ledger, orgSeq: number, actor: Human, date: string, lines: readonly StoredLine[]): Promise<void> {
  for (const l of lines.filter((x) => x.kind === 'money')) {
    const a = (await ledger.stmt('SELECT id, currency FROM accounts WHERE seq = ?').get(l.seq)) as { id: string; currency: string };
    await updateAccount(ledger, orgSeq, actor, a.id, { openingBalance: fromMinor(l.amountMinor, a.currency), openingDate: date });
  }
}

/** The opening journal's header (made, or moved to the date), its postings replaced by the lines and what they leave over. */
async function writeEntry(ledger: Ledger, orgSeq: number, actor: Human, was: JournalRow | undefined, date: string, lines: readonly StoredLine[]): Promise<JournalRow> {
  if (was) {
    await ledger.stmt('DELETE FROM postings WHERE journal_seq = ?').run(was.seq);
    await ledger.stmt('UPDATE journals SET date = ? WHERE seq = ?').run(date, was.seq);
  } else {
    await ledger
      .stmt("INSERT INTO journals (id, org_seq, kind, number, date, narration, created_at, created_by) VALUES (?, ?, 'opening', NULL, ?, 'Opening balances', ?, ?)")
      .run(newTimeOrderedId(), orgSeq, date, nowIso(), actor.name);
  }
  const row = (await openingRow(ledger, orgSeq))!;
  const plain = { categorySeq: null, accountSeq: null, taxCodeSeq: null, taxMinor: null, memo: null };
  const postings: PostingDraft[] = lines
    .filter((l) => l.kind !== 'money')
    .map((l) => ({ ...plain, kind: l.kind === 'tax' ? 'tax' : 'category', categorySeq: l.kind === 'category' ? l.seq : null, amountMinor: l.amountMinor, memo: l.memo }));
  const rest = postings.reduce((s, p) => s + p.amountMinor, 0);
  if (rest !== 0) postings.push({ ...plain, kind: 'opening', amountMinor: -rest, memo: 'What the opening lines leave over' });
  await insertPostings(ledger, row.seq, orgSeq, date, (await organizationBySeq(ledger, orgSeq)).currency, postings);
  return row;
}

/** The refusal of an entry whose debits and credits differ, saying by how much. */
function unbalanced(left: number, currency: string) {
  return invalid([
    {
      field: 'balanceToEquity',
      message: `the opening balances leave ${fromMinor(Math.abs(left), currency).toFixed(2)} ${currency} over (${left > 0 ? 'debits' : 'credits'} exceed): put it to Opening balances (equity) knowingly, or add the lines that explain it`,
    },
  ]);
}

export async function setOpeningBalances(ledger: Ledger, orgSeq: number, actor: Human, input: OpeningInput): Promise<OpeningBalances> {
  if (!isCalendarDate(input.date)) throw invalid([{ field: 'date', message: 'must be a date, YYYY-MM-DD' }]);
  const dated = balancesDate(input.date);
  const many = (input.invoices?.length ?? 0) + (input.bills?.length ?? 0) >= BULK_DOCUMENTS;
  return withCache(ledger, many ? 64 * 1024 : 0, () =>
    ledger.write(async () => {
      const was = await openingRow(ledger, orgSeq);
      await assertOpen(ledger, orgSeq, was && was.date !== dated ? [dated, was.date] : [dated], 'entered');
      const lines = await resolveLines(ledger, orgSeq, input.lines, { opening: true });
      assertOnce(lines);
      const docs = await checkOpeningDocuments(ledger, orgSeq, input, input.date);
      const plan = await planDocuments(ledger, orgSeq, was, dated, docs);
      const valuer = new Valuer(ledger, orgSeq);
      const cash = (await taxSettings(ledger, orgSeq)).basis === 'cash';
      const left = await leftOver(ledger, orgSeq, dated, lines, [...plan.keep, ...plan.add], valuer, cash);
      const currency = (await organizationBySeq(ledger, orgSeq)).currency;
      if (left !== 0 && !input.balanceToEquity) throw unbalanced(left, currency);
      const tax = lines.filter((l) => l.kind === 'tax').reduce((s, l) => s + l.amountMinor, 0);
      const period = tax === 0 ? null : await openingTaxPeriod(ledger, orgSeq, input.date, input.taxReturn);
      const value = (minor: number, c: string) => valuer.value(minor, c, dated);
      await removeDocuments(ledger, orgSeq, actor, plan.remove);
      await assertNumbersFree(ledger, orgSeq, plan.add);
      await setMoneyOpenings(ledger, orgSeq, actor, dated, lines);
      const row = await writeEntry(ledger, orgSeq, actor, was, dated, lines);
      await retaxDocuments(ledger, orgSeq, actor, plan.retax, dated, value, cash);
      const write = (track?: Track) => writeOpeningDocuments(ledger, orgSeq, actor, plan.add, dated, value, cash, track);
      if (many) await postInBulk(ledger, write);
      else await write();
      await ledger
        .stmt('UPDATE journals SET tax_return_seq = ? WHERE seq = ?')
        .run(await replaceOpeningReturn(ledger, orgSeq, actor.name, row.tax_return_seq, tax, period), row.seq);
      const shown = await showOpeningBalances(ledger, orgSeq);
      await appendAudit(ledger, orgSeq, actor, {
        action: 'opening.set',
        targetType: 'journal',
        targetId: row.id,
        summary: `Opening balances at the conversion date ${input.date} (dated ${dated}, the day before): debits ${shown.totalDebit.toFixed(2)}, credits ${shown.totalCredit.toFixed(2)} ${currency}, ${shown.invoices.length} open invoice(s), ${shown.bills.length} open bill(s)${shown.difference !== 0 ? `; ${Math.abs(shown.difference).toFixed(2)} put to Opening balances` : ''}`,
      });
      return shown;
    }),
  );
}
