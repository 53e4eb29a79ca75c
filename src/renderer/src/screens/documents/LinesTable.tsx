// The lines of an invoice, a bill, a quote or a repeating invoice (issues 29
// and 53), edited the same way everywhere: description, quantity, unit price,
// category and tax code, with the totals worked out live as the person types
// (the ledger works them out again, exactly, when it saves). A line's tax code
// shows what the ledger takes when none is chosen (the contact's default, else
// the category's: asked of the ledger, lineTaxDefaults) until the person picks
// one; "No tax" only when picked. "Add line" adds one and focuses it.
import { useRef, type RefObject } from 'react';
import { minorDigits, parseAmount, type DecimalMark } from '../../../../shared/amounts';
import { CategoryOptions } from '../../components';
import { LinesGrid, RemoveLine } from '../../LinesGrid';
import type { DeskResult } from '../../../../main/desk/operations';
import { desk } from '../../desk';
import { formatMoney } from '../../format';
import { useLoad } from '../../hooks';
import { useOrg } from '../../org';

export interface LineDraft {
  description: string;
  quantity: string;
  unitPrice: string;
  categoryCode: string;
  /** Picked by the person ('' : No tax); undefined: the ledger's default for the line, shown and not sent. */
  taxCode?: string;
}
export const BLANK: LineDraft = { description: '', quantity: '1', unitPrice: '', categoryCode: '' };
type TaxCodeEntry = DeskResult<'listTaxCodes'>[number];

/** A typed number as the form reads it for the live totals, with the organization's decimal mark (the ledger reads it exactly). */
const num = (text: string, mark: DecimalMark) => {
  const n = Number(parseAmount(text, mark) ?? 0);
  return Number.isFinite(n) ? n : 0;
};

/** The totals as the person types, rounded to the currency's digits as the ledger rounds them. */
export function liveTotals(
  lines: (LineDraft & { taxCode: string })[],
  codes: TaxCodeEntry[],
  inclusive: boolean,
  currency: string,
  mark: DecimalMark,
): { net: number; tax: number; total: number } {
  const unit = 10 ** minorDigits(currency);
  const cents = (n: number) => (Math.sign(n) * Math.round(Math.abs(n) * unit)) / unit;
  let net = 0;
  let tax = 0;
  for (const l of lines) {
    const amount = cents(num(l.quantity, mark) * num(l.unitPrice, mark));
    const code = codes.find((c) => c.code === l.taxCode);
    const rate = code && code.kind !== 'reverse_charge' ? code.rate : 0;
    const t = cents(inclusive ? (amount * rate) / (100 + rate) : (amount * rate) / 100);
    net += inclusive ? amount - t : amount;
    tax += t;
  }
  return { net: cents(net), tax: cents(tax), total: cents(net + tax) };
}

/**
 * The tax code each line shows: the one picked, else what the ledger takes for its category and the contact when
 * the line names none (the same rule as `invoice create`), else none.
 */
function useShownTax(orgId: string, contact: string, lines: LineDraft[]): (line: LineDraft) => string {
  const categoryCodes = [...new Set(lines.map((l) => l.categoryCode).filter(Boolean))].sort();
  const defaults = useLoad(
    () => (categoryCodes.length ? desk.lineTaxDefaults({ orgId, contact: contact || undefined, categoryCodes }) : Promise.resolve([])),
    [orgId, contact, categoryCodes.join()],
  );
  return (line) => line.taxCode ?? defaults.data?.find((d) => d.categoryCode === line.categoryCode)?.taxCode ?? '';
}

function LineRow(props: {
  i: number;
  line: LineDraft & { taxCode: string };
  last?: RefObject<HTMLInputElement | null>;
  categories: DeskResult<'listChart'>;
  codes: TaxCodeEntry[];
  set: (patch: Partial<LineDraft>) => void;
  remove?: () => void;
}) {
  const { i, line, last, categories, codes, set, remove } = props;
  return (
    <tr>
      <td>
        <input aria-label={`Line ${i + 1} description`} required maxLength={500} ref={last} value={line.description} onChange={(e) => set({ description: e.target.value })} />
      </td>
      <td className="num">
        <input aria-label={`Line ${i + 1} quantity`} required inputMode="decimal" size={6} value={line.quantity} onChange={(e) => set({ quantity: e.target.value })} />
      </td>
      <td className="num">
        <input aria-label={`Line ${i + 1} unit price`} required inputMode="decimal" size={10} value={line.unitPrice} onChange={(e) => set({ unitPrice: e.target.value })} />
      </td>
      <td>
        <select aria-label={`Line ${i + 1} category`} required value={line.categoryCode} onChange={(e) => set({ categoryCode: e.target.value })}>
          <option value="">Choose…</option>
          <CategoryOptions categories={categories} keep={line.categoryCode} />
        </select>
      </td>
      <td>
        <select aria-label={`Line ${i + 1} tax code`} value={line.taxCode} onChange={(e) => set({ taxCode: e.target.value })}>
          <option value="">No tax</option>
          {codes
            .filter((c) => !c.archived)
            .map((c) => (
              <option key={c.code} value={c.code}>
                {c.code} {c.rate}%
              </option>
            ))}
        </select>
      </td>
      <RemoveLine i={i} remove={remove} />
    </tr>
  );
}

/** The lines as the ledger takes them: a code not picked is left out, so the ledger takes the default shown. */
export const linesInput = (lines: LineDraft[]) => lines.map(({ taxCode, ...l }) => ({ ...l, ...(taxCode === undefined ? {} : { taxCode: taxCode || null }) }));

/** The lines table, the live totals and "Add line": `types` are the category types a line may take. */
export function LinesTable(props: {
  orgId: string;
  contact: string;
  currency: string;
  inclusive: boolean;
  types: readonly string[];
  lines: LineDraft[];
  setLines: (lines: LineDraft[]) => void;
}) {
  const { orgId, contact, currency, inclusive, types, lines, setLines } = props;
  const chart = useLoad(() => desk.listChart({ orgId }), [orgId]);
  const codes = useLoad(() => desk.listTaxCodes({ orgId }), [orgId]);
  const lastRef = useRef<HTMLInputElement>(null);
  const categories = (chart.data ?? []).filter((c) => types.includes(c.type));
  const { decimalMark } = useOrg();
  const shownTax = useShownTax(orgId, contact, lines);
  const taxed = lines.map((l) => ({ ...l, taxCode: shownTax(l) }));
  const totals = liveTotals(taxed, codes.data ?? [], inclusive, currency, decimalMark);
  const money = (amount: number) => formatMoney(amount, currency);
  return (
    <>
      <LinesGrid
        headings={[{ label: 'Description' }, { label: 'Quantity', num: true }, { label: 'Unit price', num: true }, { label: 'Category' }, { label: 'Tax' }]}
        lines={lines}
        setLines={setLines}
        fewest={1}
        row={(p) => <LineRow key={p.i} {...p} line={taxed[p.i]} last={p.i === lines.length - 1 ? lastRef : undefined} categories={categories} codes={codes.data ?? []} />}
      />
      <p className="totals" aria-live="polite">
        Net {money(totals.net)} · Tax {money(totals.tax)} · <strong>Total {money(totals.total)}</strong>
      </p>
      <div className="actions">
        <button type="button" onClick={() => (setLines([...lines, { ...BLANK }]), setTimeout(() => lastRef.current?.focus(), 0))}>
          Add line
        </button>
      </div>
    </>
  );
}
