// The CSV mapping of the Import screen: which column is the date, the amount
// (or debit and credit), the description, the bank's id and the running balance; the date format
// when the file fits two; the decimal mark; card exports' signs. Saved per
// account when the import is confirmed.
import type { DeskInput } from '../../../../main/desk/operations';
import { descriptionOrder } from '../../../../main/statements/csv-mapping';
import type { CsvReport, StatementDates } from '../../../../main/statements/types';

type Options = Omit<DeskInput<'importStatement'>, 'orgId' | 'file'>;
type Columns = { date: string; amount?: string; debit?: string; credit?: string; description: string[]; id?: string; balance?: string };

/**
 * The date format of a file whose dates are its own (CSV, QIF): a choice among
 * the formats when every date reads both ways, else the one read (editable);
 * said when the account's earlier statements settled the order.
 */
export function DateFormatField({ dates, value, onChange }: { dates: StatementDates; value: string | undefined; onChange: (format: string | undefined) => void }) {
  const current = value ?? dates.format ?? '';
  return (
    <label>
      Date format
      {dates.formats.length > 1 ? (
        <select aria-label="Date format" aria-invalid={!current} value={current} onChange={(e) => onChange(e.target.value || undefined)}>
          {!current && <option value="">Choose: the dates fit {dates.formats.length} formats</option>}
          {dates.formats.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </select>
      ) : (
        <input aria-label="Date format" value={current} placeholder="DD/MM/YYYY" onChange={(e) => onChange(e.target.value || undefined)} />
      )}
      {dates.from && !value && <span className="small">the order of {dates.from}&apos;s earlier statements (these dates read both ways)</span>}
    </label>
  );
}

interface EditorProps {
  csv: CsvReport;
  dates: StatementDates | null;
  options: Options;
  set: (patch: Partial<Options>) => void;
}

export function MappingEditor({ csv, dates, options, set }: EditorProps) {
  const given = typeof options.columns === 'object' ? options.columns : csv.columns;
  const current: Columns = given ? { ...given, description: given.description ?? [] } : { date: csv.headers[0], amount: csv.headers[1], description: [] };
  const split = current.amount === undefined;
  const update = (patch: Partial<Columns>) => set({ columns: { ...current, ...patch } as Columns });
  const column = (label: string, value: string | undefined, onChange: (v: string | undefined) => void, optional = false) => (
    <label>
      {label}
      <select value={value ?? ''} onChange={(e) => onChange(e.target.value || undefined)}>
        {optional && <option value="">(none)</option>}
        {csv.headers.map((h, i) => (
          <option key={i} value={h}>
            {h}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <fieldset className="mapping">
      <legend>
        CSV columns{' '}
        <span className="muted small">
          (delimiter “{csv.delimiter === '\t' ? 'tab' : csv.delimiter}”, header on line {csv.headerLine ?? 'none'})
        </span>
      </legend>
      {column('Date', current.date, (v) => update({ date: v ?? csv.headers[0] }))}
      <label className="check">
        <input
          type="checkbox"
          checked={split}
          onChange={(e) =>
            update(e.target.checked ? { amount: undefined, debit: csv.headers[0], credit: csv.headers[0] } : { amount: csv.headers[0], debit: undefined, credit: undefined })
          }
        />{' '}
        Separate debit and credit columns
      </label>
      {split ? (
        <>
          {column('Debit (money out)', current.debit, (v) => update({ debit: v }))}
          {column('Credit (money in)', current.credit, (v) => update({ credit: v }))}
        </>
      ) : (
        column('Amount', current.amount, (v) => update({ amount: v }))
      )}
      {column('Bank id', current.id, (v) => update({ id: v }), true)}
      {column('Running balance', current.balance, (v) => update({ balance: v }), true)}
      <div className="description-columns" role="group" aria-label="Description columns">
        Description
        {csv.headers.map((h, i) => (
          <label key={i} className="check">
            <input
              type="checkbox"
              checked={current.description.includes(h)}
              // Ticked in any order, the description reads as a statement line does: who, then what.
              onChange={(e) => update({ description: descriptionOrder(csv.headers, e.target.checked ? [...current.description, h] : current.description.filter((d) => d !== h)) })}
            />{' '}
            {h}
          </label>
        ))}
      </div>
      <DateFormatField
        dates={dates ?? { format: csv.dateFormat, formats: csv.dateFormats, from: null }}
        value={options.dateFormat}
        onChange={(dateFormat) => set({ dateFormat })}
      />
      <label>
        Decimal mark
        <select value={options.decimal ?? csv.decimal} onChange={(e) => set({ decimal: e.target.value as '.' | ',' })}>
          <option value=".">1,234.56</option>
          <option value=",">1.234,56</option>
        </select>
      </label>
      <label className="check">
        <input type="checkbox" checked={options.negateAmounts ?? csv.negated === true} onChange={(e) => set({ negateAmounts: e.target.checked })} /> Spending shows as positive
        (many card exports)
      </label>
    </fieldset>
  );
}
