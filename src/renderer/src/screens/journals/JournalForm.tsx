// A new manual journal (issue 43): date, narration, lines (JournalLines),
// a reverse-on date for an accrual, a monthly repeat. The ledger works the
// lines out as they are typed (previewJournal: each taxed line's tax at the
// date's rate), and the running difference must reach zero before Save.
import { useEffect, useState, type FormEvent } from 'react';
import type { Journal } from '../../../../main/ledger/journals/journals';
import type { JournalPreview } from '../../../../main/ledger/journals/add';
import { DateField, Money, messageOf } from '../../components';
import { desk } from '../../desk';
import { today } from '../../format';
import { useLoad } from '../../hooks';
import { useOrg } from '../../org';
import { amountOf, BLANK_LINE, journalExtras, JournalLines, type LineDraft } from './JournalLines';

const complete = (lines: LineDraft[]) => lines.filter((l) => l.account && amountOf(l) !== null);
const asInput = (lines: LineDraft[]) => complete(lines).map((l) => ({ account: l.account, amount: amountOf(l)!, taxCode: l.taxCode || null, memo: l.memo || null }));

/** The ledger's reading of the lines as typed, a moment after the typing stops (its refusal, when it refuses them). */
function usePreview(orgId: string, date: string, lines: LineDraft[]): { preview: JournalPreview | null; problem: string | null } {
  const [state, setState] = useState<{ preview: JournalPreview | null; problem: string | null }>({ preview: null, problem: null });
  const key = JSON.stringify([date, asInput(lines)]);
  useEffect(() => {
    const input = asInput(lines);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || input.length === 0) return setState({ preview: null, problem: null });
    // A reading asked before the lines changed again is dropped when it answers: the later one is shown.
    let stale = false;
    const timer = setTimeout(
      () =>
        desk.previewJournal({ orgId, date, lines: input }).then(
          (preview) => stale || setState({ preview, problem: null }),
          (error) => stale || setState({ preview: null, problem: messageOf(error) }),
        ),
      200,
    );
    return () => {
      stale = true;
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the key is the lines and the date as the ledger reads them
  }, [orgId, key]);
  return state;
}

export function JournalForm({ orgId, onSaved, fail }: { orgId: string; onSaved: (j: Journal | { proposed: unknown[] }) => void; fail: (e: unknown) => void }) {
  const { currency } = useOrg();
  const chart = useLoad(() => desk.listChart({ orgId }), [orgId]);
  const accounts = useLoad(() => desk.listAccounts({ orgId }), [orgId]);
  const codes = useLoad(() => desk.listTaxCodes({ orgId }), [orgId]);
  const [date, setDate] = useState(today());
  const [narration, setNarration] = useState('');
  const [lines, setLines] = useState<LineDraft[]>([{ ...BLANK_LINE }, { ...BLANK_LINE }]);
  const [reverseOn, setReverseOn] = useState('');
  const [repeat, setRepeat] = useState(false);
  const [until, setUntil] = useState('');
  const [count, setCount] = useState('');
  const { preview, problem } = usePreview(orgId, date, lines);
  const ready = preview !== null && preview.difference === 0 && complete(lines).length >= 2 && narration.trim() !== '';

  async function save(e: FormEvent) {
    e.preventDefault();
    try {
      const saved = await desk.addJournal({
        orgId,
        date,
        narration,
        lines: asInput(lines),
        ...(reverseOn ? { reverseOn } : {}),
        ...(repeat ? { repeat: 'monthly' as const, ...(until ? { until } : {}), ...(count ? { count: Number(count) } : {}) } : {}),
      });
      onSaved(saved);
      setLines([{ ...BLANK_LINE }, { ...BLANK_LINE }]);
      setNarration('');
      setReverseOn('');
      setRepeat(false);
    } catch (err) {
      fail(err);
    }
  }

  return (
    <form className="document-form" aria-label="New journal" onSubmit={(e) => void save(e)}>
      <div className="inline-form">
        <DateField label="Date" value={date} onChange={setDate} />
        <label>
          Narration
          <input required maxLength={500} size={40} value={narration} onChange={(e) => setNarration(e.target.value)} />
        </label>
      </div>
      <JournalLines lines={lines} setLines={setLines} categories={chart.data ?? []} extras={journalExtras(accounts.data ?? [])} codes={codes.data ?? []} />
      <p className="totals" aria-live="polite">
        {preview ? (
          <>
            Debits <Money amount={preview.totalDebit} currency={currency} plain /> · Credits <Money amount={preview.totalCredit} currency={currency} plain /> ·{' '}
            <strong>
              Difference <Money amount={preview.difference} currency={currency} plain />
            </strong>
            {preview.lines.some((l) => l.worked) && <span className="muted"> (tax included)</span>}
          </>
        ) : (
          (problem ?? <span className="muted">Debits and credits show here as you type.</span>)
        )}
      </p>
      <div className="inline-form">
        <DateField label="Reverse on" value={reverseOn} onChange={setReverseOn} />
        <label className="check">
          <input type="checkbox" checked={repeat} onChange={(e) => setRepeat(e.target.checked)} /> Repeat monthly
        </label>
        {repeat && (
          <>
            <DateField label="Until" value={until} onChange={setUntil} />
            <label>
              Times
              <input inputMode="numeric" size={4} value={count} onChange={(e) => setCount(e.target.value.replace(/\D/g, ''))} />
            </label>
          </>
        )}
      </div>
      <div className="actions">
        <button type="submit" className="primary" disabled={!ready} title={ready ? undefined : 'Saved when debits equal credits (tax included)'}>
          Save journal
        </button>
      </div>
    </form>
  );
}
