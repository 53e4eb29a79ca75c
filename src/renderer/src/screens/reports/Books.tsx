// The balance sheet at a date and the trial balance of a period, in Reports:
// printable, CSV, and every figure opens the general ledger lines behind it
// (#/ledger?account=<ref>). Assets = liabilities + equity is shown, not assumed.
import { useState } from 'react';
import { balanceSheetCsv, trialBalanceCsv } from '../../../../main/exports/books-csv';
import type { BalanceSheet, StatementSection } from '../../../../main/ledger/reports/balance-sheet';
import { DateField, Money, Show, TableFrame } from '../../components';
import { desk } from '../../desk';
import { useLoad } from '../../hooks';
import { saveText } from './ExportPanel';

/** Where a report line's figure leads: its general ledger lines (over the period, when there is one). */
export const ledgerLink = (ref: string | undefined, from: string | null, to: string): string | undefined =>
  ref ? `#/ledger?${new URLSearchParams({ account: ref, ...(from ? { from } : {}), to })}` : undefined;

const label = (l: { code?: string; name: string }) => `${l.code ? `${l.code} ` : ''}${l.name}`;

function Figure({ target, amount, currency, from, to }: { target?: string; amount: number; currency: string; from: string | null; to: string }) {
  const href = ledgerLink(target, from, to);
  return href ? (
    <a href={href} title="Open the lines behind this figure">
      <Money amount={amount} currency={currency} plain />
    </a>
  ) : (
    <Money amount={amount} currency={currency} plain />
  );
}

function Section({ title, section, bs }: { title: string; section: StatementSection; bs: BalanceSheet }) {
  return (
    <tbody>
      <tr className="section">
        <th colSpan={2}>{title}</th>
      </tr>
      {section.lines
        .flatMap((l) => [l, ...(l.parts ?? []).map((p) => ({ ...p, part: true }))])
        .map((l) => (
          <tr key={`${'part' in l ? 'part:' : ''}${l.ref ?? l.name}`} className={'part' in l ? 'child part' : 'child'}>
            <td>
              {'part' in l && <span className="muted">of which </span>}
              {l.ref ? <a href={ledgerLink(l.ref, null, bs.date)}>{label(l)}</a> : label(l)}
            </td>
            <td className="num">
              <Figure target={l.ref} amount={l.amount} currency={bs.currency} from={null} to={bs.date} />
            </td>
          </tr>
        ))}
      <tr className="subtotal">
        <td>Total {title.toLowerCase()}</td>
        <td className="num">
          <Money amount={section.total} currency={bs.currency} plain />
        </td>
      </tr>
    </tbody>
  );
}

export function BalanceSheetPanel({ orgId }: { orgId: string }) {
  const [date, setDate] = useState('');
  const loaded = useLoad(() => desk.balanceSheet({ orgId, date: date || undefined }), [orgId, date]);
  return (
    <>
      <h3>Balance sheet</h3>
      <form className="filters no-print" onSubmit={(e) => e.preventDefault()}>
        <DateField label="At (YYYY-MM-DD, default today)" value={date} onChange={setDate} />
      </form>
      <Show loaded={loaded} what="the balance sheet">
        {(bs) => (
          <>
            <p className="muted small">
              At {bs.date}, {bs.currency}; the fiscal year began {bs.fiscalYearStart}.
            </p>
            <TableFrame>
              <table className="grid books" aria-label={`Balance sheet at ${bs.date}`}>
                <Section title="Assets" section={bs.assets} bs={bs} />
                <Section title="Liabilities" section={bs.liabilities} bs={bs} />
                <Section title="Equity" section={bs.equity} bs={bs} />
                <tbody>
                  <tr className="total">
                    <td>Total liabilities and equity</td>
                    <td className="num">
                      <Money amount={bs.liabilitiesAndEquity} currency={bs.currency} plain />
                    </td>
                  </tr>
                </tbody>
              </table>
            </TableFrame>
            <button className="no-print" onClick={() => saveText(`balance-sheet-${bs.date}.csv`, balanceSheetCsv(bs))}>
              Download CSV
            </button>
          </>
        )}
      </Show>
    </>
  );
}

export function TrialBalancePanel({ orgId }: { orgId: string }) {
  const [period, setPeriod] = useState({ from: '', to: '' });
  const loaded = useLoad(() => desk.trialBalance({ orgId, from: period.from || undefined, to: period.to || undefined }), [orgId, period.from, period.to]);
  return (
    <>
      <h3>Trial balance</h3>
      <form className="filters no-print" onSubmit={(e) => e.preventDefault()}>
        <DateField label="From (default: the fiscal year's start)" value={period.from} onChange={(from) => setPeriod((p) => ({ ...p, from }))} />
        <DateField label="To (default today)" value={period.to} onChange={(to) => setPeriod((p) => ({ ...p, to }))} />
      </form>
      <Show loaded={loaded} what="the trial balance">
        {(tb) => (
          <>
            <TableFrame>
              <table className="grid books" aria-label={`Trial balance, ${tb.from} to ${tb.to}`}>
                <thead>
                  <tr>
                    <th>Account</th>
                    <th className="num">Debit</th>
                    <th className="num">Credit</th>
                  </tr>
                </thead>
                <tbody>
                  {tb.lines
                    .flatMap((l) => [l, ...(l.parts ?? []).map((p) => ({ ...p, part: true }))])
                    .map((l) => (
                      <tr key={`${'part' in l ? 'part:' : ''}${l.ref ?? l.name}`} className={'part' in l ? 'part' : undefined}>
                        <td>
                          {'part' in l && <span className="muted">of which </span>}
                          {l.ref ? <a href={ledgerLink(l.ref, null, tb.to)}>{label(l)}</a> : label(l)}
                        </td>
                        <td className="num">{l.debit !== 0 && <Money amount={l.debit} currency={tb.currency} plain />}</td>
                        <td className="num">{l.credit !== 0 && <Money amount={l.credit} currency={tb.currency} plain />}</td>
                      </tr>
                    ))}
                  <tr className="total">
                    <td>Total</td>
                    <td className="num">
                      <Money amount={tb.totalDebit} currency={tb.currency} plain />
                    </td>
                    <td className="num">
                      <Money amount={tb.totalCredit} currency={tb.currency} plain />
                    </td>
                  </tr>
                </tbody>
              </table>
            </TableFrame>
            <button className="no-print" onClick={() => saveText(`trial-balance-${tb.from}-${tb.to}.csv`, trialBalanceCsv(tb))}>
              Download CSV
            </button>
          </>
        )}
      </Show>
    </>
  );
}
