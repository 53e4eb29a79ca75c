// The organization's tax codes (the Tax screen's settings): set up a
// ready-made set, and each code's rate today, kind, side and return boxes.
import { useState } from 'react';
import type { TaxCode } from '../../../main/ledger/tax/codes';
import { Notice, TableFrame, messageOf } from '../components';
import { desk } from '../desk';

const SETS = [
  ['uk-vat', 'UK VAT'],
  ['au-gst', 'Australian GST'],
  ['plain', 'Sales tax (plain)'],
] as const;

export function TaxCodes({ orgId, codes, onChanged }: { orgId: string; codes: TaxCode[]; onChanged: () => void }) {
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
      <form className="inline-form" aria-label="Set up tax codes" onSubmit={(e) => (e.preventDefault(), void setup())}>
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
                  <td>{c.kind.replace('_', ' ')}</td>
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
