// The organization's tax codes (the Tax screen's settings): set up a
// ready-made set, each code's rate today, kind, side and return boxes, a new
// code, and a code's new rate from a date (earlier lines keep theirs).
import { useState } from 'react';
import type { TaxCode } from '../../../../main/ledger/tax/codes';
import { DateField, Notice, TableFrame, messageOf } from '../../components';
import { desk } from '../../desk';
import { useCan } from '../../can';

/** The ready-made tax sets (db/tax-sets.json), as the screens name them. */
export const SETS = [
  ['uk-vat', 'UK VAT'],
  ['au-gst', 'Australian GST'],
  ['plain', 'Sales tax (plain)'],
] as const;

const KINDS = ['standard', 'reduced', 'zero_rated', 'exempt', 'outside_scope', 'reverse_charge'] as const;

function NewCode({ orgId, onChanged, fail }: { orgId: string; onChanged: () => void; fail: (e: unknown) => void }) {
  const [f, setF] = useState({ code: '', name: '', rate: '', kind: 'standard' as (typeof KINDS)[number], applies: 'both' as 'sales' | 'purchases' | 'both' });
  const submit = () =>
    desk
      .addTaxCode({ orgId, code: f.code, name: f.name || undefined, rate: f.rate, kind: f.kind, applies: f.applies })
      .then(() => (setF({ ...f, code: '', name: '', rate: '' }), onChanged()), fail);
  return (
    <form className="inline-form" aria-label="New tax code" onSubmit={(e) => (e.preventDefault(), void submit())}>
      <label>
        Code
        <input required maxLength={20} size={6} value={f.code} onChange={(e) => setF({ ...f, code: e.target.value })} />
      </label>
      <label>
        Name
        <input maxLength={200} value={f.name} onChange={(e) => setF({ ...f, name: e.target.value })} />
      </label>
      <label>
        Rate (%)
        <input required inputMode="decimal" size={7} value={f.rate} onChange={(e) => setF({ ...f, rate: e.target.value })} placeholder="20" />
      </label>
      <label>
        Kind
        <select value={f.kind} onChange={(e) => setF({ ...f, kind: e.target.value as (typeof KINDS)[number] })}>
          {KINDS.map((k) => (
            <option key={k} value={k}>
              {k.replace('_', ' ')}
            </option>
          ))}
        </select>
      </label>
      <label>
        On
        <select value={f.applies} onChange={(e) => setF({ ...f, applies: e.target.value as 'sales' | 'purchases' | 'both' })}>
          <option value="both">sales and purchases</option>
          <option value="sales">sales</option>
          <option value="purchases">purchases</option>
        </select>
      </label>
      <button type="submit">Add tax code</button>
    </form>
  );
}

function NewRate({ orgId, codes, onChanged, fail }: { orgId: string; codes: TaxCode[]; onChanged: () => void; fail: (e: unknown) => void }) {
  const [f, setF] = useState({ code: codes[0]?.code ?? '', from: '', rate: '' });
  const submit = () => desk.setTaxRate({ orgId, ...f }).then(() => (setF({ ...f, from: '', rate: '' }), onChanged()), fail);
  return (
    <form className="inline-form" aria-label="New rate" onSubmit={(e) => (e.preventDefault(), void submit())}>
      <label>
        Code
        <select value={f.code} onChange={(e) => setF({ ...f, code: e.target.value })}>
          {codes.map((c) => (
            <option key={c.code} value={c.code}>
              {c.code}
            </option>
          ))}
        </select>
      </label>
      <DateField label="From" value={f.from} onChange={(from) => setF({ ...f, from })} />
      <label>
        Rate (%)
        <input required inputMode="decimal" size={7} value={f.rate} onChange={(e) => setF({ ...f, rate: e.target.value })} />
      </label>
      <button type="submit">Set the rate</button>
    </form>
  );
}

export function TaxCodes({ orgId, codes, onChanged }: { orgId: string; codes: TaxCode[]; onChanged: () => void }) {
  const can = useCan();
  const [set, setSet] = useState<string>('uk-vat');
  const [error, setError] = useState<string>();
  async function setup() {
    setError(undefined);
    try {
      await desk.setupTax({ orgId, set });
      onChanged();
    } catch (err) {
      setError(messageOf(err));
    }
  }
  return (
    <>
      <h3>Tax codes</h3>
      <form hidden={!can('setupTax')} className="inline-form" aria-label="Set up tax codes" onSubmit={(e) => (e.preventDefault(), void setup())}>
        <label>
          Ready-made set
          <select value={set} onChange={(e) => setSet(e.target.value)}>
            {SETS.map(([id, name]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">{codes.length ? 'Add the codes it lacks' : 'Set up'}</button>
      </form>
      {error && <Notice kind="error">{error}</Notice>}
      {can('addTaxCode') && <NewCode orgId={orgId} onChanged={onChanged} fail={(e) => setError(messageOf(e))} />}
      {codes.length > 0 && can('setTaxRate') && <NewRate orgId={orgId} codes={codes.filter((c) => !c.archived)} onChanged={onChanged} fail={(e) => setError(messageOf(e))} />}
      {codes.length > 0 && (
        <TableFrame>
          <table className="grid" aria-label="Tax codes">
            <thead>
              <tr>
                <th>Code</th>
                <th>Name</th>
                <th className="num">Rate today</th>
                <th>Kind</th>
                <th>On</th>
                <th>Return boxes</th>
              </tr>
            </thead>
            <tbody>
              {codes.map((c) => (
                <tr key={c.code} className={c.archived ? 'muted' : undefined}>
                  <td>
                    <code>{c.code}</code>
                  </td>
                  <td>{c.name}</td>
                  <td className="num">{c.rate}%</td>
                  <td className="nowrap">{c.kind.replace('_', ' ')}</td>
                  <td>{c.applies}</td>
                  <td className="small">{c.boxes.map((b) => `${b.box} (${b.side} ${b.measure})`).join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableFrame>
      )}
    </>
  );
}
