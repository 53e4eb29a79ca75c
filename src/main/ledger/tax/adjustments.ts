// The corrections of earlier returns a return includes (issue 43): the open
// ones in the next open return (any period after the last filed one, as late
// lines are), or those a filed return's filing stamped. Each is one adjustment
// line per tax code and side whose figures changed, naming the row and the
// return it corrects. And the tax office's threshold for including them
// (db/tax-sets.json): over it, the return is flagged.
import type { Ledger } from '../core/sqlite/open';
import { fromMinor, toMinor } from '../core/money';
import type { CorrectionThreshold } from './codes';
import { figureDifferences, payableOf, type TaxFigure } from './figures';
import { rateE4Of } from './codes';
import { mulDivRounded } from './lines';

export interface TaxCorrectionLine {
  /** The correction (one per row and return that includes it). */
  correctionId: string;
  transactionId: string;
  date: string;
  description: string;
  /** The row was deleted: the adjustment takes back what was filed for it. */
  deleted: boolean;
  /** The filed return it corrects. */
  taxReturn: { id: string; from: string; to: string; filedAt: string };
  code: string;
  side: 'sales' | 'purchases';
  /** The differences, in the return's sign. */
  net: number;
  tax: number;
  boxes: Record<string, number>;
}

export interface ReturnAdjustment {
  line: TaxCorrectionLine;
  /** The same difference in minor units, as the return adds it. */
  figure: TaxFigure;
}

interface Row {
  id: string;
  transaction_seq: number | null;
  transaction_id: string;
  date: string;
  description: string;
  before: string;
  after: string;
  return_id: string;
  period_from: string;
  period_to: string;
  filed_at: string;
}

/** Which corrections a period's return includes: those its filing stamped, or (a period after the last filed one) the open ones. */
async function includedBy(ledger: Ledger, orgSeq: number, period: { from: string; to: string }, filedTo: string): Promise<{ where: string; params: unknown[] } | null> {
  const filed = await ledger.stmt('SELECT seq FROM tax_returns WHERE org_seq = ? AND period_from = ? AND period_to = ?').pluck().get(orgSeq, period.from, period.to);
  if (filed !== undefined) return { where: 'c.filed_in_seq = ?', params: [filed] };
  return period.from > filedTo ? { where: 'c.filed_in_seq IS NULL', params: [] } : null;
}

/** The adjustments of a period's return, by the rows' dates. */
export async function returnAdjustments(ledger: Ledger, orgSeq: number, currency: string, period: { from: string; to: string }, filedTo: string): Promise<ReturnAdjustment[]> {
  const included = await includedBy(ledger, orgSeq, period, filedTo);
  if (!included) return [];
  const rows = await ledger.rows<Row>(
    `SELECT c.id, c.transaction_seq, c.transaction_id, c.date, c.description, c.before, c.after, r.id AS return_id, r.period_from, r.period_to, r.filed_at
     FROM tax_corrections c JOIN tax_returns r ON r.seq = c.tax_return_seq WHERE c.org_seq = ? AND ${included.where} ORDER BY c.date, c.seq`,
    orgSeq,
    ...included.params,
  );
  const money = (minor: number) => fromMinor(minor, currency);
  return rows.flatMap((r) =>
    figureDifferences(JSON.parse(r.before) as TaxFigure[], JSON.parse(r.after) as TaxFigure[]).map((figure) => ({
      figure,
      line: {
        correctionId: r.id,
        transactionId: r.transaction_id,
        date: r.date,
        description: r.description,
        deleted: r.transaction_seq === null,
        taxReturn: { id: r.return_id, from: r.period_from, to: r.period_to, filedAt: r.filed_at },
        code: figure.code,
        side: figure.side,
        net: money(figure.net),
        tax: money(figure.tax),
        boxes: Object.fromEntries(Object.entries(figure.boxes).map(([box, v]) => [box, money(v)])),
      },
    })),
  );
}

/** Filing a return stamps the corrections it included: they are part of what it filed. */
export async function stampCorrections(ledger: Ledger, correctionIds: readonly string[], returnSeq: number): Promise<void> {
  const stamp = ledger.stmt('UPDATE tax_corrections SET filed_in_seq = ? WHERE id = ? AND filed_in_seq IS NULL');
  for (const id of new Set(correctionIds)) await stamp.run(returnSeq, id);
}

export interface CorrectionThresholdCheck {
  /** The corrections' net value: the tax they add to the payable (negative: due back). */
  netValue: number;
  /** The limit for this return. */
  limit: number;
  exceeded: boolean;
  /** What the tax office asks instead (shown when exceeded). */
  message: string;
  source: string;
}

/** The set's threshold applied to a return's corrections (null: none included, or the set knows no threshold). */
export function thresholdCheck(
  threshold: CorrectionThreshold | undefined,
  currency: string,
  adjustments: readonly ReturnAdjustment[],
  boxes: ReadonlyMap<string, number>,
): CorrectionThresholdCheck | null {
  if (!threshold || !adjustments.length) return null;
  const net = payableOf(adjustments.map((a) => a.figure));
  let limit = toMinor(Number(threshold.limit), currency, 'correctionThreshold.limit');
  const share = threshold.shareOfBox;
  if (share) {
    const part = mulDivRounded(boxes.get(share.box) ?? 0, rateE4Of(share.percent, 'correctionThreshold.shareOfBox.percent'), 1_000_000);
    limit = Math.max(limit, Math.min(toMinor(Number(share.cap), currency, 'correctionThreshold.shareOfBox.cap'), part));
  }
  const counted = threshold.direction === 'owed' ? Math.max(net, 0) : Math.abs(net);
  return {
    netValue: fromMinor(net, currency),
    limit: fromMinor(limit, currency),
    exceeded: threshold.limitIncluded ? counted > limit : counted >= limit,
    message: threshold.message,
    source: threshold.source,
  };
}
