// Opening balances (issue 43): the books taken over at a conversion date.
// Every balance-sheet account with its figure at the close of the day before
// (issue 50: the entry is dated that day), the money accounts, the asset,
// liability and equity categories, the tax owed with the return it was filed
// in, the open invoices and bills with the VAT inside them, the debits and
// credits added up as typed and what they leave over, which "Put the
// difference to Opening balances" accepts; Save sets the whole entry
// (opening-balances set). On the cash basis an open document's VAT is the tax
// control account's (due when paid), and documents without it are warned of.
import { useState, type FormEvent } from 'react';
import type { DeskResult } from '../../../../main/desk/operations';
import { parseAmount } from '../../../../shared/amounts';
import { DateField, Money, Notice, Show, messageOf } from '../../components';
import { desk } from '../../desk';
import { useLoad } from '../../hooks';
import { useOrg } from '../../org';
import { useCan } from '../../can';
import { OpenDocuments, type DocumentDraft } from './OpenDocuments';
import { RetainedEarningsNote } from './RetainedEarningsNote';

type Shown = DeskResult<'openingBalances'>;
type Figure = { debit: string; credit: string };
interface Row {
  key: string;
  name: string;
  group: string;
  hint?: string;
}

const figureOf = (amount: number | undefined): Figure =>
  !amount ? { debit: '', credit: '' } : amount > 0 ? { debit: String(amount), credit: '' } : { debit: '', credit: String(-amount) };
const asDraft = (d: Shown['invoices'][number]): DocumentDraft => ({
  ...d,
  outstanding: String(d.outstanding),
  taxCode: d.taxCode ?? '',
  tax: d.tax === null ? '' : String(d.tax),
});
/** The tax codes an open invoice (sales) or bill (purchases) may carry: no reverse charge (accounted when supplied). */
const codesFor = (codes: DeskResult<'listTaxCodes'>, side: 'sales' | 'purchases') =>
  codes.filter((c) => !c.archived && c.kind !== 'reverse_charge' && (c.applies === 'both' || c.applies === side)).map((c) => c.code);

function rowsOf(accounts: DeskResult<'listAccounts'>, chart: DeskResult<'listChart'>, shown: Shown): Row[] {
  const inEntry = new Set(shown.lines.map((l) => l.ref));
  return [
    ...accounts
      .filter((a) => !a.closedAt)
      .map((a) => ({ key: `account:${a.id}`, name: `${a.name}${a.currency !== shown.currency ? ` (${a.currency})` : ''}`, group: 'Money accounts' })),
    ...chart
      .filter((c) => c.code && ((c.inUse && ['asset', 'liability', 'equity'].includes(c.type)) || inEntry.has(`category:${c.code}`)))
      .map((c) => ({
        key: c.code,
        name: `${c.code} ${c.name}`,
        group: `${c.type[0].toUpperCase()}${c.type.slice(1)} categories`,
        ...(c.retainedEarnings ? { hint: "the retained earnings account: with the earlier years' earnings, one balance sheet line" } : {}),
      })),
    { key: 'tax-control', name: 'Sales tax control (tax owed: a credit)', group: 'Tax' },
  ];
}

function OpeningForm(props: { orgId: string; shown: Shown; rows: Row[]; codes: DeskResult<'listTaxCodes'>; onSaved: (s: Shown) => void; fail: (e: unknown) => void }) {
  const { orgId, shown, rows, codes, onSaved, fail } = props;
  const { currency, decimalMark } = useOrg();
  const may = useCan()('setOpeningBalances');
  const contacts = useLoad(() => desk.listContacts({ orgId }), [orgId]);
  const [date, setDate] = useState(shown.date ?? '');
  const [figures, setFigures] = useState<Record<string, Figure>>(() =>
    Object.fromEntries(
      rows.map((r) => {
        // A money account in another currency is typed in its own; the open documents' VAT is theirs, not typed here.
        const line = shown.lines.find((l) => l.kind !== 'vat' && (l.ref === r.key || l.ref === `category:${r.key}`));
        return [r.key, figureOf(line?.own?.amount ?? line?.amount)];
      }),
    ),
  );
  const [invoices, setInvoices] = useState<DocumentDraft[]>(shown.invoices.map(asDraft));
  const [bills, setBills] = useState<DocumentDraft[]>(shown.bills.map(asDraft));
  const [period, setPeriod] = useState({ from: shown.taxReturn?.from ?? '', to: shown.taxReturn?.to ?? '' });
  const [toEquity, setToEquity] = useState(false);
  const num = (text: string) => Number(parseAmount(text, decimalMark) ?? 0) || 0;
  const amountOf = (f: Figure) => (f.debit.trim() ? num(f.debit) : -num(f.credit));
  // On the cash basis an open document's VAT is in the tax control account (due when paid): an invoice's a credit, a bill's a debit.
  const vat = (ds: DocumentDraft[]) => (shown.taxBasis === 'cash' ? ds.reduce((s, d) => s + (d.taxCode ? num(d.tax) : 0), 0) : 0);
  const debit = Object.values(figures).reduce((s, f) => s + Math.max(amountOf(f), 0), 0) + invoices.reduce((s, d) => s + num(d.outstanding), 0) + vat(bills);
  const credit = Object.values(figures).reduce((s, f) => s + Math.max(-amountOf(f), 0), 0) + bills.reduce((s, d) => s + num(d.outstanding), 0) + vat(invoices);
  const left = Math.round((debit - credit) * 100) / 100;
  const text = (f: Figure) => (f.debit.trim() ? f.debit.trim() : f.credit.trim() ? `-${f.credit.trim()}` : '0');

  async function save(e: FormEvent) {
    e.preventDefault();
    const lines = rows.filter((r) => r.key.startsWith('account:') || amountOf(figures[r.key]) !== 0).map((r) => ({ account: r.key, amount: text(figures[r.key]) }));
    const docs = (ds: DocumentDraft[]) =>
      ds.map(({ settled: _settled, ...d }) => ({ ...d, dueDate: d.dueDate || undefined, taxCode: d.taxCode || undefined, tax: d.taxCode ? d.tax : undefined }));
    try {
      const taxReturn = period.from && period.to ? { taxReturn: period } : {};
      onSaved(await desk.setOpeningBalances({ orgId, date, lines, invoices: docs(invoices), bills: docs(bills), balanceToEquity: toEquity, ...taxReturn }));
    } catch (err) {
      fail(err);
    }
  }

  const set = (key: string, patch: Partial<Figure>) => setFigures({ ...figures, [key]: { ...figures[key], ...patch } });
  return (
    <form className="document-form" aria-label="Opening balances" onSubmit={(e) => void save(e)}>
      <div className="inline-form">
        <DateField label="Conversion date" value={date} onChange={setDate} />
        <span className="muted small">the day these books start: the balances are those at the close of the day before, and dated that day</span>
      </div>
      <table className="grid" aria-label="Balance-sheet accounts">
        <thead>
          <tr>
            <th>Account</th>
            <th className="num">Debit</th>
            <th className="num">Credit</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={r.key} className={i === 0 || rows[i - 1].group !== r.group ? 'group-start' : undefined}>
              <td>
                {(i === 0 || rows[i - 1].group !== r.group) && <span className="muted small">{r.group}: </span>}
                {r.name}
                {r.hint && <span className="muted small"> ({r.hint})</span>}
              </td>
              <td className="num">
                <input
                  aria-label={`${r.name} debit`}
                  inputMode="decimal"
                  size={12}
                  value={figures[r.key].debit}
                  onChange={(e) => set(r.key, { debit: e.target.value, credit: '' })}
                />
              </td>
              <td className="num">
                <input
                  aria-label={`${r.name} credit`}
                  inputMode="decimal"
                  size={12}
                  value={figures[r.key].credit}
                  onChange={(e) => set(r.key, { credit: e.target.value, debit: '' })}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="inline-form">
        <span className="muted">The tax owed is for the return</span>
        <DateField label="from" value={period.from} onChange={(from) => setPeriod({ ...period, from })} />
        <DateField label="to" value={period.to} onChange={(to) => setPeriod({ ...period, to })} />
        <span className="muted small">(empty: the tax period ending the day before the conversion)</span>
      </div>
      {shown.warnings.map((w) => (
        <Notice key={w} kind="error">
          {w}
        </Notice>
      ))}
      {[
        { kind: 'invoice' as const, rows: invoices, setRows: setInvoices, side: 'sales' as const },
        { kind: 'bill' as const, rows: bills, setRows: setBills, side: 'purchases' as const },
      ].map((d) => (
        <OpenDocuments
          key={d.kind}
          {...d}
          contacts={(contacts.data ?? []).filter((c) => (d.kind === 'bill' ? c.vendor : c.customer))}
          codes={codesFor(codes, d.side)}
          currency={currency}
        />
      ))}
      <p className="totals" aria-live="polite">
        Debits <Money amount={debit} currency={currency} plain /> · Credits <Money amount={credit} currency={currency} plain /> ·{' '}
        <strong>
          Difference <Money amount={left} currency={currency} plain />
        </strong>
      </p>
      {may ? (
        <div className="actions">
          <label className="check">
            <input type="checkbox" checked={toEquity} disabled={left === 0} onChange={(e) => setToEquity(e.target.checked)} /> Put the difference to Opening balances
          </label>
          <button type="submit" className="primary" disabled={!date || (left !== 0 && !toEquity)}>
            Save opening balances
          </button>
        </div>
      ) : (
        <p className="hint">An owner or an accountant sets the opening balances.</p>
      )}
    </form>
  );
}

export function OpeningBalances({ orgId }: { orgId: string }) {
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const all = useLoad(
    async () => ({
      shown: await desk.openingBalances({ orgId }),
      accounts: await desk.listAccounts({ orgId }),
      chart: await desk.listChart({ orgId }),
      codes: await desk.listTaxCodes({ orgId }),
    }),
    [orgId],
  );
  return (
    <section aria-labelledby="opening-title">
      <div className="screen-head">
        <h2 id="opening-title">Opening balances</h2>
        <p className="figures">
          {all.data?.shown.date
            ? `As at ${all.data.shown.asAt}, the day before the conversion date ${all.data.shown.date}`
            : 'Books taken over: every balance-sheet account as at the close of the day before the conversion date'}
        </p>
      </div>
      {notice && (
        <Notice kind={notice.kind} onClose={() => setNotice(undefined)}>
          {notice.text}
        </Notice>
      )}
      <Show loaded={all} what="the opening balances">
        {(d) => (
          <>
            <OpeningForm
              key={JSON.stringify(d.shown)}
              orgId={orgId}
              shown={d.shown}
              rows={rowsOf(d.accounts, d.chart, d.shown)}
              codes={d.codes}
              onSaved={(s) => (setNotice({ kind: 'ok', text: `Opening balances saved as at ${s.asAt}, the day before the conversion date ${s.date}.` }), all.reload())}
              fail={(err) => setNotice({ kind: 'error', text: messageOf(err) })}
            />
            <RetainedEarningsNote orgId={orgId} retained={d.shown.retainedEarnings} onMade={all.reload} />
          </>
        )}
      </Show>
    </section>
  );
}
