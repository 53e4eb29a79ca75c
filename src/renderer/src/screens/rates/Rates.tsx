// Exchange rates (issue 30): one unit of a currency in the organization's
// base currency, by day. The list (newest first, by currency), a rate typed
// by hand, and a rates file: the ECB's reference rates as published or a
// date,currency,rate CSV (all of it or nothing; a bad cell named by row).
import { useState, type FormEvent } from 'react';
import { DateField, Notice, Show, TableFrame, messageOf } from '../../components';
import { desk } from '../../desk';
import { today } from '../../format';
import { useLoad } from '../../hooks';
import { useCan } from '../../can';

function NewRate({ orgId, base, done, fail }: { orgId: string; base: string; done: (text: string) => void; fail: (e: unknown) => void }) {
  const [f, setF] = useState({ currency: '', date: today(), rate: '' });
  async function submit(e: FormEvent) {
    e.preventDefault();
    try {
      const r = await desk.setRate({ orgId, ...f });
      done(`1 ${r.currency} = ${r.rate} ${base} on ${r.date}.`);
      setF({ ...f, rate: '' });
    } catch (err) {
      fail(err);
    }
  }
  return (
    <form className="inline-form" aria-label="Set a rate" onSubmit={(e) => void submit(e)}>
      <label>
        Currency
        <input required size={4} maxLength={3} pattern="[A-Za-z]{3}" value={f.currency} onChange={(e) => setF({ ...f, currency: e.target.value.toUpperCase() })} />
      </label>
      <DateField label="Date" value={f.date} onChange={(date) => setF({ ...f, date })} />
      <label>
        Rate (in {base})
        <input required inputMode="decimal" size={12} value={f.rate} onChange={(e) => setF({ ...f, rate: e.target.value })} />
      </label>
      <button type="submit">Set rate</button>
    </form>
  );
}

function RatesFile({ orgId, done, fail }: { orgId: string; done: (text: string) => void; fail: (e: unknown) => void }) {
  const [busy, setBusy] = useState(false);
  async function choose(file: File | undefined) {
    if (!file) return;
    setBusy(true);
    try {
      const { uploadId } = await desk.stageStatement({ orgId, fileName: file.name, bytes: new Uint8Array(await file.arrayBuffer()) });
      const r = await desk.importRates({ orgId, file: uploadId });
      done(
        `${file.name} (${r.format === 'ecb' ? 'ECB reference rates' : 'rates file'}): ${r.added} added, ${r.changed} changed, ${r.unchanged} already so` +
          `${r.currencies.length ? ` (${r.currencies.join(', ')}; ${r.from} to ${r.to})` : ''}${r.valued ? `; ${r.valued} row(s) awaiting a rate valued` : ''}.`,
      );
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  }
  return (
    <p>
      <label className="button">
        {busy ? 'Importing…' : 'Import a rates file'}
        <input
          className="sr-only"
          type="file"
          accept=".csv,text/csv"
          aria-label="Rates file (the ECB's eurofxref CSV, or date,currency,rate)"
          disabled={busy}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = ''; // the same file picked again is read again
            void choose(file);
          }}
        />
      </label>{' '}
      <span className="hint">The ECB&apos;s reference rates as published (eurofxref-hist.csv), or a date,currency,rate CSV.</span>
    </p>
  );
}

export function Rates({ orgId }: { orgId: string }) {
  const can = useCan();
  const [currency, setCurrency] = useState('');
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const rates = useLoad(() => desk.listRates({ orgId, currency: currency || undefined, limit: 200 }), [orgId, currency]);
  const done = (text: string) => (setNotice({ kind: 'ok', text }), rates.reload());
  const fail = (err: unknown) => setNotice({ kind: 'error', text: messageOf(err) });
  const base = rates.data?.base ?? '';
  const may = can('setRate');
  return (
    <section aria-labelledby="rates-title">
      <div className="screen-head">
        <h2 id="rates-title">Exchange rates{base && ` in ${base}`}</h2>
      </div>
      <p className="hint">
        One unit of a currency in the base currency. A day without a rate takes the latest of the 7 days before it; rows and reports in another currency need one.
      </p>
      {notice && (
        <Notice kind={notice.kind} onClose={() => setNotice(undefined)}>
          {notice.text}
        </Notice>
      )}
      {may && <NewRate orgId={orgId} base={base} done={done} fail={fail} />}
      {may && <RatesFile orgId={orgId} done={done} fail={fail} />}
      <Show loaded={rates} what="the rates">
        {(r) => (
          <>
            <form className="filters" onSubmit={(e) => e.preventDefault()}>
              <label>
                Currency
                <select value={currency} onChange={(e) => setCurrency(e.target.value)}>
                  <option value="">all</option>
                  {r.currencies.map((c) => (
                    <option key={c.currency} value={c.currency}>
                      {c.currency} ({c.n}, {c.first} to {c.last})
                    </option>
                  ))}
                </select>
              </label>
            </form>
            <TableFrame>
              <table className="grid" aria-label="Rates">
                <caption className="sr-only">
                  {r.rates.length} of {r.total} rates
                </caption>
                <thead>
                  <tr>
                    <th>Date</th>
                    <th>Currency</th>
                    <th className="num">Rate in {r.base}</th>
                    <th>From</th>
                  </tr>
                </thead>
                <tbody>
                  {r.rates.map((x) => (
                    <tr key={`${x.currency} ${x.date}`}>
                      <td className="nowrap">{x.date}</td>
                      <td>{x.currency}</td>
                      <td className="num">{x.rate}</td>
                      <td>{{ hand: 'typed', ecb: 'ECB file', file: 'rates file', transfer: 'a transfer' }[x.source]}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableFrame>
            {r.total > r.rates.length && (
              <p className="hint">
                The newest {r.rates.length} of {r.total}: choose a currency to narrow the list.
              </p>
            )}
          </>
        )}
      </Show>
    </section>
  );
}
