// The rows a sync held for the person (issue 52): nothing already booked
// changes silently. Each with both versions, the books' row and the bank's, and
// the choice: keep the books' version (the bank's is let go), or import the
// bank's as a row of its own (the books' stays until deleted by hand).
import type { HeldRow } from '../../../../main/ledger/feeds/held';
import { Money, TableFrame, Words } from '../../components';
import { desk } from '../../desk';
import { useCan } from '../../can';

type Version = { date: string; amount: number; description: string } | null;

function VersionCell({ v, currency }: { v: Version; currency: string }) {
  if (!v) return <td className="muted">removed since (an undone import)</td>;
  return (
    <td className="wrap">
      {v.date} · <Money amount={v.amount} currency={currency} /> · <Words text={v.description} />
    </td>
  );
}

interface Props {
  orgId: string;
  rows: HeldRow[];
  done: (text: string) => void;
  fail: (e: unknown) => void;
}

export function HeldRows({ orgId, rows, done, fail }: Props) {
  const can = useCan();
  const waiting = rows.filter((r) => r.decision === null);
  if (!waiting.length) return null;
  const decide = (r: HeldRow, decision: 'keep' | 'import') => () =>
    void desk
      .decideHeldRow({ orgId, id: r.id, decision })
      .then(() => done(decision === 'keep' ? `Kept the books' row in ${r.account.name}; the bank's version is let go.` : `Imported the bank's row into ${r.account.name}.`), fail);
  return (
    <section className="card" aria-labelledby="held-title">
      <h3 id="held-title">Held for you ({waiting.length})</h3>
      <p className="hint">The bank sent these with other figures than the books hold, or under another id: nothing was written. Decide each.</p>
      <TableFrame>
        <table className="grid" aria-label="Held rows">
          <thead>
            <tr>
              <th>Account</th>
              <th>Why</th>
              <th>In the books</th>
              <th>From the bank</th>
              <th>Decide</th>
            </tr>
          </thead>
          <tbody>
            {waiting.map((r) => (
              <tr key={r.id}>
                <td>{r.account.name}</td>
                <td className="wrap small">{r.reason}</td>
                <VersionCell v={r.books} currency={r.account.currency} />
                <VersionCell v={r.feed} currency={r.account.currency} />
                <td className="nowrap">
                  {can('decideHeldRow') && (
                    <>
                      <button onClick={decide(r, 'keep')}>Keep the books&apos; row</button> <button onClick={decide(r, 'import')}>Import the bank&apos;s</button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableFrame>
    </section>
  );
}
