// The Tax screen (issue 28): the return of a period (default: the period to
// file next, by the organization's settings: monthly or quarterly from a start month) with the set's boxes and the per-code summary; every figure opens
// the lines behind it (the tax audit report); the corrections of earlier
// returns it includes (TaxCorrections.tsx); file the return once its period
// has ended (issue 50); the history of filed returns, the latest undone when
// filed by mistake (FiledReturns.tsx); a UK VAT return sent to HMRC (hmrc/);
// the tax codes.
import { useState } from 'react';
import { DateField, Money, Notice, Pager, Show, TableFrame, Words, messageOf } from '../../components';
import { desk } from '../../desk';
import { formatMoney, monthName } from '../../format';
import { useLoad } from '../../hooks';
import { useCan } from '../../can';
import { useOrg } from '../../org';
import { TaxCodes } from './TaxCodes';
import { TaxCorrections, thresholdFlag } from './TaxCorrections';
import { CodeSummary } from './CodeSummary';
import { FiledReturns, unfiledWords } from './FiledReturns';
import { HmrcPanel } from './hmrc/HmrcPanel';
import type { UnfiledReturn } from '../../../../main/ledger/tax/unfiling';
import { periodName } from '../../correction';
import { filedWords } from '../../../../shared/words';
import type { TaxReturn } from '../../../../main/ledger/tax/return';

type Pick = { box?: string; code?: string } | null;

function Audit({ orgId, period, pick, currency }: { orgId: string; period: { from: string; to: string }; pick: NonNullable<Pick>; currency: string }) {
  const [offset, setOffset] = useState(0);
  const loaded = useLoad(() => desk.taxAudit({ orgId, ...period, ...pick, limit: 100, offset }), [orgId, period.from, period.to, pick.box, pick.code, offset]);
  return (
    <Show loaded={loaded} what="the lines">
      {(a) => (
        <>
          <h4>{pick.box ? `The lines behind box ${pick.box}` : `The lines of ${pick.code}`}</h4>
          <TableFrame>
            <table className="grid" aria-label="Tax audit">
              <thead>
                <tr>
                  <th>Date</th>
                  <th>Description</th>
                  <th>Code</th>
                  <th>Side</th>
                  <th className="num">Net</th>
                  <th className="num">Tax</th>
                </tr>
              </thead>
              <tbody>
                {a.data.map((l, i) => (
                  <tr key={`${l.transactionId}-${i}`}>
                    <td className="nowrap">
                      {l.date}
                      {l.late && <span className="badge">late</span>}
                      {l.correction && <span className="badge">correction of {periodName(l.correction.taxReturn.from, l.correction.taxReturn.to)}</span>}
                    </td>
                    <td>
                      <Words text={l.description} />
                    </td>
                    <td>{l.code}</td>
                    <td>{l.side}</td>
                    <td className="num">
                      <Money amount={l.net} currency={currency} plain />
                    </td>
                    <td className="num">
                      <Money amount={l.tax} currency={currency} plain />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableFrame>
          <Pager offset={offset} limit={100} total={a.meta.totalCount} onChange={setOffset} />
        </>
      )}
    </Show>
  );
}

/** How often the return is filed, from which month, and on which basis. */
function SettingsForm({ orgId, settings, onChanged }: { orgId: string; settings: { period: string; startMonth: number; basis: string }; onChanged: () => void }) {
  return (
    <form className="inline-form no-print" aria-label="Tax settings" onSubmit={(e) => e.preventDefault()}>
      <label>
        Returns
        <select value={settings.period} onChange={(e) => void desk.taxSettings({ orgId, period: e.target.value as 'monthly' | 'quarterly' }).then(onChanged)}>
          <option value="quarterly">quarterly</option>
          <option value="monthly">monthly</option>
        </select>
      </label>
      <label>
        From month
        <select value={settings.startMonth} onChange={(e) => void desk.taxSettings({ orgId, startMonth: Number(e.target.value) }).then(onChanged)}>
          {Array.from({ length: 12 }, (_, i) => (
            <option key={i} value={i + 1}>
              {monthName(i + 1)}
            </option>
          ))}
        </select>
      </label>
      <label>
        Basis
        <select value={settings.basis} onChange={(e) => void desk.taxSettings({ orgId, basis: e.target.value as 'cash' | 'accrual' }).then(onChanged)}>
          <option value="cash">cash</option>
          <option value="accrual">accrual</option>
        </select>
      </label>
    </form>
  );
}

/** Bank rows that may pay a filed return, each matched with one click. */
function Payments({
  candidates,
  pay,
}: {
  candidates: { returnId: string; transactionId: string; date: string; description: string; from: string; to: string; payable: number }[];
  pay: (returnId: string, transactionId: string) => void;
}) {
  const { currency } = useOrg();
  if (!candidates.length) return null;
  return (
    <ul aria-label="Payments to match">
      {candidates.map((c) => (
        <li key={`${c.returnId}-${c.transactionId}`}>
          {c.date} {c.description}: may pay the return for {c.from} to {c.to} ({formatMoney(c.payable, currency)}){' '}
          <button onClick={() => pay(c.returnId, c.transactionId)}>Match payment</button>
        </li>
      ))}
    </ul>
  );
}

/**
 * A period to file, or one filed: what was filed is shown as filed (no second filing); a period that has not ended
 * says when it can be filed instead (issue 50).
 */
function FileOrFiled({ r, onFile }: { r: TaxReturn; onFile: () => void }) {
  if (r.filed) return <p className="hint">{filedWords(r.filed)}</p>;
  if (r.fileFrom)
    return (
      <p className="hint">
        This period ends on {r.to}: its return can be filed from {r.fileFrom}.
      </p>
    );
  return (
    <button className="no-print" onClick={onFile}>
      File this return
    </button>
  );
}

export function Tax({ orgId }: { orgId: string }) {
  const { currency } = useOrg();
  const can = useCan();
  // The settings are read with the call that changes them: for whom may change them (the return says its period to the others).
  const maySet = can('taxSettings');
  const settings = useLoad(() => (maySet ? desk.taxSettings({ orgId }) : Promise.resolve(null)), [orgId, maySet]);
  const [chosen, setChosen] = useState<{ from: string; to: string } | null>(null);
  // The period to file next (after the last filed return) until the person picks another.
  const period = chosen ?? settings.data?.current ?? { from: '', to: '' };
  const [pick, setPick] = useState<Pick>(null);
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const codes = useLoad(() => desk.listTaxCodes({ orgId }), [orgId]);
  const ret = useLoad(() => desk.taxReport({ orgId, from: period.from || undefined, to: period.to || undefined }), [orgId, period.from, period.to]);
  const history = useLoad(() => desk.listTaxReturns({ orgId }), [orgId]);
  const payments = useLoad(() => desk.taxPaymentCandidates({ orgId }), [orgId]);
  // Without settings, the period the return was made for (the one to file next).
  const shown = chosen || settings.data || !ret.data ? period : { from: ret.data.from, to: ret.data.to };
  // The fields open once the period they start from is known (or cannot be): a date typed sooner would be replaced by it.
  const starting = !chosen && !settings.data && !ret.data && !ret.error;
  async function pay(returnId: string, transactionId: string) {
    try {
      const r = await desk.payTaxReturn({ orgId, returnId, transactionId });
      setNotice({ kind: 'ok', text: `The return for ${r.from} to ${r.to} is paid.` });
      history.reload();
      payments.reload();
    } catch (err) {
      setNotice({ kind: 'error', text: messageOf(err) });
    }
  }
  function undone(r: UnfiledReturn) {
    setNotice({ kind: 'ok', text: unfiledWords(r) });
    history.reload();
    settings.reload();
    ret.reload();
  }
  async function file() {
    // Over the tax office's threshold for corrections, filing them in this return is the person's decision, asked here.
    const flag = ret.data ? thresholdFlag(ret.data.correctionThreshold, currency) : null;
    const question = `File the return for ${shown.from} to ${shown.to}? Its lines will no longer change.${flag ? `\n\n${flag}\nFile them in this return all the same?` : ''}`;
    if (!window.confirm(question)) return;
    try {
      const r = await desk.fileTaxReturn({ orgId, ...shown, confirmCorrections: flag ? true : undefined });
      setNotice({ kind: 'ok', text: `Filed the return for ${r.from} to ${r.to}: ${r.lineCount} line(s), payable ${formatMoney(r.payable, currency)}.` });
      history.reload();
      settings.reload();
      setChosen(null);
    } catch (err) {
      setNotice({ kind: 'error', text: messageOf(err) });
    }
  }
  return (
    <section aria-labelledby="tax-title" className="reports">
      <div className="screen-head">
        <h2 id="tax-title">Tax</h2>
      </div>
      {notice && (
        <Notice kind={notice.kind} onClose={() => setNotice(undefined)}>
          {notice.text}
        </Notice>
      )}
      <form className="filters no-print" aria-label="Period" onSubmit={(e) => e.preventDefault()}>
        <DateField label="From" value={shown.from} onChange={(from) => setChosen({ ...shown, from })} disabled={starting} />
        <DateField label="To" value={shown.to} onChange={(to) => setChosen({ ...shown, to })} disabled={starting} />
      </form>
      {settings.data && <SettingsForm orgId={orgId} settings={settings.data} onChanged={() => (setChosen(null), settings.reload())} />}
      <Show loaded={ret} what="the return">
        {(r) => (
          <>
            <h3>
              Return, {r.from} to {r.to} ({r.basis} basis)
            </h3>
            {r.lateLines > 0 && <p className="hint">{r.lateLines} line(s) dated in a period already filed arrived late: they are in this return.</p>}
            <TableFrame>
              <table className="grid books" aria-label="Return boxes">
                <tbody>
                  {Object.entries(r.boxes).map(([box, amount]) => (
                    <tr key={box}>
                      <td>
                        Box {box} <span className="muted small">{r.boxTitles[box]}</span>
                      </td>
                      <td className="num">
                        <button className="link" onClick={() => setPick({ box })} aria-label={`Box ${box}: the lines behind it`}>
                          <Money amount={amount} currency={r.currency} plain />
                        </button>
                      </td>
                    </tr>
                  ))}
                  <tr className="total">
                    <td>Payable{r.payable < 0 ? ' (due back)' : ''}</td>
                    <td className="num">
                      <Money amount={r.payable} currency={r.currency} plain />
                    </td>
                  </tr>
                </tbody>
              </table>
            </TableFrame>
            <TaxCorrections corrections={r.corrections} threshold={r.correctionThreshold} currency={r.currency} />
            <CodeSummary codes={r.codes} currency={r.currency} onPick={(code) => setPick({ code })} />
            {r.warnings?.map((w) => (
              <Notice key={w.code} kind="error">
                {w.message}
              </Notice>
            ))}
            {(r.filed || can('fileTaxReturn')) && <FileOrFiled r={r} onFile={() => void file()} />}
            {pick && <Audit orgId={orgId} period={shown} pick={pick} currency={r.currency} />}
          </>
        )}
      </Show>
      {/* UK VAT goes to HMRC (issue 54): the panel where the organization keeps the UK VAT set. */}
      {ret.data?.set === 'uk-vat' && <HmrcPanel orgId={orgId} onSubmitted={() => (history.reload(), settings.reload(), ret.reload())} />}
      <h3>Filed returns</h3>
      <Show loaded={history} what="the filed returns">
        {(rs) => <FiledReturns orgId={orgId} returns={rs} onUndone={undone} fail={(text) => setNotice({ kind: 'error', text })} />}
      </Show>
      <Show loaded={payments} what="the payments">
        {(cs) => can('payTaxReturn') && <Payments candidates={cs} pay={(r, t) => void pay(r, t)} />}
      </Show>
      <Show loaded={codes} what="the tax codes">
        {(cs) => <TaxCodes orgId={orgId} codes={cs} onChanged={() => (codes.reload(), ret.reload())} />}
      </Show>
    </section>
  );
}
