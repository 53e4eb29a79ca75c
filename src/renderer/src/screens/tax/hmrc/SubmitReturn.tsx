// The return of an open obligation sent to HMRC (issue 54): the nine boxes as
// HMRC will receive them (hmrc/boxes.ts over the period's return, as the
// submission computes them: boxes 1-5 in pounds and pence, 6-9 whole pounds),
// HMRC's declaration in its own words with a tick box, Submit; then HMRC's
// receipt. An unticked declaration is refused by the operation, in words.
import { useState, type FormEvent } from 'react';
import type { DeskResult } from '../../../../../main/desk/operations';
import { vatReturnBody } from '../../../../../main/hmrc/boxes';
import type { ObligationView } from '../../../../../main/hmrc/submit';
import { Show, TableFrame } from '../../../components';
import { desk } from '../../../desk';
import { formatMoney } from '../../../format';
import { useLoad } from '../../../hooks';
import { clientFacts, hmrcWords } from './browser';

type Submitted = DeskResult<'submitTaxReturn'>;

/** The nine boxes and the fields HMRC receives them in (its titles are the return's own). */
const BOXES = [
  ['1', 'vatDueSales'],
  ['2', 'vatDueAcquisitions'],
  ['3', 'totalVatDue'],
  ['4', 'vatReclaimedCurrPeriod'],
  ['5', 'netVatDue'],
  ['6', 'totalValueSalesExVAT'],
  ['7', 'totalValuePurchasesExVAT'],
  ['8', 'totalValueGoodsSuppliedExVAT'],
  ['9', 'totalAcquisitionsExVAT'],
] as const;

export function Receipt({ r }: { r: Submitted }) {
  const g = (k: string) => (r.receipt[k] === null || r.receipt[k] === undefined ? '' : String(r.receipt[k]));
  const rows: [string, string][] = [
    ['Processing date', g('processingDate')],
    ['Form bundle number', g('formBundleNumber')],
    ['Charge reference', g('chargeRefNumber')],
    ['Payment indicator', g('paymentIndicator')],
    ['Receipt-ID', g('receiptId')],
    ['Receipt-Timestamp', g('receiptTimestamp')],
  ];
  return (
    <div aria-label={`HMRC's receipt for ${r.periodKey}`} role="region">
      <h4>
        HMRC accepted the VAT return for {r.from} to {r.to} ({r.periodKey})
      </h4>
      {r.receipt.recovered === true && <p className="hint">Its first answer was lost: HMRC holds the return (asked before sending again).</p>}
      {r.notFiled && <p className="hint">{r.notFiled}</p>}
      <TableFrame>
        <table className="grid" aria-label={`Receipt for ${r.periodKey}`}>
          <tbody>
            {rows.map(([name, value]) => (
              <tr key={name}>
                <th scope="row">{name}</th>
                <td>{value || '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableFrame>
    </div>
  );
}

export function SubmitReturn(props: { orgId: string; o: ObligationView; declaration: string; onSubmitted: (r: Submitted) => void; fail: (words: string) => void }) {
  const { orgId, o, declaration, fail } = props;
  const report = useLoad(() => desk.taxReport({ orgId, from: o.start, to: o.end }), [orgId, o.start, o.end]);
  const [ticked, setTicked] = useState(false);
  const [sending, setSending] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setSending(true);
    try {
      props.onSubmitted(await desk.submitTaxReturn({ orgId, periodKey: o.periodKey, confirmDeclaration: ticked, client: clientFacts() }));
    } catch (err) {
      fail(hmrcWords(err));
    } finally {
      setSending(false);
    }
  }
  return (
    <Show loaded={report} what="the return">
      {(r) => {
        const body = vatReturnBody(r, o.periodKey);
        return (
          <form aria-label={`Submit ${o.periodKey} to HMRC`} onSubmit={(e) => void submit(e)}>
            <h4>
              The VAT return for {o.start} to {o.end} as HMRC will receive it
            </h4>
            <TableFrame>
              <table className="grid books" aria-label={`Boxes sent to HMRC for ${o.periodKey}`}>
                <tbody>
                  {BOXES.map(([box, field]) => (
                    <tr key={box}>
                      <td>
                        Box {box} <span className="muted small">{r.boxTitles[box]}</span>
                        {box > '5' && <span className="muted small"> (whole pounds)</span>}
                      </td>
                      <td className="num">{box < '6' ? formatMoney(body[field], 'GBP') : String(body[field])}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableFrame>
            <label className="declaration">
              <input type="checkbox" checked={ticked} onChange={(e) => setTicked(e.target.checked)} /> {declaration}
            </label>
            <button type="submit" disabled={sending}>
              {sending ? 'Submitting…' : 'Submit to HMRC'}
            </button>
          </form>
        );
      }}
    </Show>
  );
}
