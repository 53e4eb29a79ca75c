// Corrections after a filed return (issue 43), as HMRC (VAT Notice 700/45) and
// the ATO describe them: the return stays as filed, and the difference a
// change to one of its rows makes goes into the next open return as an
// adjustment naming the row and the return. Only a person makes one, and only
// deliberately (the flag `correction`; the screens ask): categorizing the row,
// its tax code, a split or unsplit, its amount or date, deleting it. The row's
// lines change as any change would; the correction keeps, per tax code and
// side, what the filed returns took for the row and what it says now.
//
// The row stays the filed return's while it is dated in a filed period (all
// its lines stamped, so that a later change asks again); moved after the last
// filed period, it belongs to its own period's return and the correction takes
// back what was filed. One open correction per row: changed again before the
// next return is filed, it is recomputed; once filed, the next one corrects
// against what the row said then (a chain).
import { appendAudit, type Human } from '../access/audit';
import { organizationBySeq } from '../access/organizations';
import { newId, nowIso } from '../core/clock';
import type { Ledger } from '../core/sqlite/open';
import { fromMinor } from '../core/money';
import { assertNotFiled } from '../transactions/lines';
import { figureDifferences, payableOf, rowFigures, type TaxFigure } from './figures';
import { lastFiledTo } from './return';

/** The flag a change to a filed row takes: made as a correction in the next open return. */
export interface Correcting {
  correction?: boolean;
}

/** A row as a correction names it. */
export interface CorrectedRow {
  seq: number;
  id: string;
  date: string;
  description: string;
  amount_minor: number;
  currency: string;
}

interface OpenCorrection {
  seq: number;
  id: string;
  tax_return_seq: number;
  before: string;
  after: string;
}

/** The filed return whose stamp the row's lines carry, or undefined. */
const stampOf = async (ledger: Ledger, seq: number): Promise<number | undefined> =>
  (await ledger.stmt('SELECT tax_return_seq FROM lines WHERE transaction_seq = ? AND tax_return_seq IS NOT NULL LIMIT 1').pluck().get(seq)) as number | undefined;

const openOf = async (ledger: Ledger, seq: number): Promise<OpenCorrection | undefined> =>
  (await ledger.stmt('SELECT seq, id, tax_return_seq, before, after FROM tax_corrections WHERE transaction_seq = ? AND filed_in_seq IS NULL').get(seq)) as
    OpenCorrection | undefined;

/**
 * Runs a change of a row (its lines, date or existence): as is when no filed return took the row; refused as
 * before without the flag; with it, as a correction (recorded, audited) in the same transaction as the change.
 */
export async function asCorrection<T>(ledger: Ledger, orgSeq: number, actor: Human, row: CorrectedRow, flags: Correcting, change: () => Promise<T>): Promise<T> {
  const stamp = await stampOf(ledger, row.seq);
  const open = await openOf(ledger, row.seq);
  if (stamp === undefined && !open) return change();
  if (stamp !== undefined && !flags.correction) await assertNotFiled(ledger, row.seq);
  const base = (await organizationBySeq(ledger, orgSeq)).currency;
  const returnSeq = open?.tax_return_seq ?? stamp!;
  const before = open ? (JSON.parse(open.before) as TaxFigure[]) : await rowFigures(ledger, base, row.seq);
  // Unstamped while it changes (the change's own refusal of filed rows stands for everyone else), stamped again after.
  await ledger.stmt('UPDATE lines SET tax_return_seq = NULL WHERE transaction_seq = ?').run(row.seq);
  const result = await change();
  const now = (await ledger.stmt('SELECT date, description, amount_minor FROM transactions WHERE seq = ?').get(row.seq)) as Kept['now'];
  const stillFiled = now !== undefined && now.date <= (await lastFiledTo(ledger, orgSeq));
  if (stillFiled) await ledger.stmt('UPDATE lines SET tax_return_seq = ? WHERE transaction_seq = ?').run(returnSeq, row.seq);
  const after = stillFiled ? await rowFigures(ledger, base, row.seq) : [];
  await keep(ledger, orgSeq, actor, { row, now, open, returnSeq, before, after, base });
  return result;
}

interface Kept {
  row: CorrectedRow;
  /** The row after the change; undefined once deleted. */
  now: { date: string; description: string; amount_minor: number } | undefined;
  open: OpenCorrection | undefined;
  returnSeq: number;
  before: TaxFigure[];
  after: TaxFigure[];
  base: string;
}

/** Writes (or recomputes, or removes) the row's open correction, and says so in the audit log. */
async function keep(ledger: Ledger, orgSeq: number, actor: Human, k: Kept): Promise<void> {
  const differences = figureDifferences(k.before, k.after);
  if (!differences.length && !k.open) return; // nothing the filed returns took has changed
  const filed = (await ledger.stmt('SELECT id, period_from, period_to, filed_at FROM tax_returns WHERE seq = ?').get(k.returnSeq)) as {
    id: string;
    period_from: string;
    period_to: string;
    filed_at: string;
  };
  const at = nowIso();
  const date = k.now?.date ?? k.row.date;
  const description = k.now?.description ?? k.row.description;
  const id = k.open?.id ?? newId();
  if (k.open && figureDifferences(JSON.parse(k.open.after) as TaxFigure[], k.after).length === 0) {
    // The same figures (a description, another day in an open period): only how it names the row follows.
    await ledger.stmt('UPDATE tax_corrections SET date = ?, description = ? WHERE seq = ?').run(date, description, k.open.seq);
    return;
  }
  if (!differences.length) await ledger.stmt('DELETE FROM tax_corrections WHERE seq = ?').run(k.open!.seq);
  else if (k.open) {
    await ledger
      .stmt('UPDATE tax_corrections SET date = ?, description = ?, after = ?, corrected_at = ?, corrected_by = ? WHERE seq = ?')
      .run(date, description, JSON.stringify(k.after), at, actor.name, k.open.seq);
  } else {
    await ledger
      .stmt(
        `INSERT INTO tax_corrections (id, org_seq, transaction_seq, transaction_id, date, description, tax_return_seq, before, after, corrected_at, corrected_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(id, orgSeq, k.now ? k.row.seq : null, k.row.id, date, description, k.returnSeq, JSON.stringify(k.before), JSON.stringify(k.after), at, actor.name);
  }
  const money = (minor: number) => fromMinor(minor, k.base).toFixed(2);
  const row = `"${description}" ${date} ${fromMinor(k.now?.amount_minor ?? k.row.amount_minor, k.row.currency).toFixed(2)} ${k.row.currency}${k.now ? '' : ' (deleted)'}`;
  const said = differences.length
    ? `${differenceText(differences, money)}; net value ${signed(payableOf(differences), money)}`
    : 'no difference left: nothing goes into the next return';
  await appendAudit(ledger, orgSeq, actor, {
    action: 'tax.corrected',
    targetType: 'transaction',
    targetId: k.row.id,
    summary: `Correction ${id} of the return for ${filed.period_from} to ${filed.period_to} (filed ${filed.filed_at.slice(0, 10)}, ${filed.id}), in the next open return: ${row}: ${said}`,
  });
}

const signed = (minor: number, money: (m: number) => string) => `${minor > 0 ? '+' : ''}${money(minor)}`;

/** "S purchases net -100.00 tax -20.00; Z purchases net +120.00; boxes 4 -20.00, 7 +20.00". */
function differenceText(differences: readonly TaxFigure[], money: (minor: number) => string): string {
  const boxes = new Map<string, number>();
  for (const d of differences) for (const [box, v] of Object.entries(d.boxes)) boxes.set(box, (boxes.get(box) ?? 0) + v);
  const pairs = differences.map((d) => `${d.code} ${d.side} net ${signed(d.net, money)}${d.tax ? ` tax ${signed(d.tax, money)}` : ''}`);
  const moved = [...boxes].filter(([, v]) => v !== 0).sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }));
  return `${pairs.join('; ')}${moved.length ? `; boxes ${moved.map(([box, v]) => `${box} ${signed(v, money)}`).join(', ')}` : ''}`;
}
