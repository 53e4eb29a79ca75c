// The history of imports, newest first, each with undo (refused, with the
// reason, when a person's work rests on its rows).
import { useState } from 'react';
import { Empty, Notice, Pager, Show, TableFrame, messageOf } from '../components';
import { desk } from '../desk';
import { useLoad } from '../hooks';

const LIMIT = 20;

export function ImportHistory({ orgId, tick, onUndone }: { orgId: string; tick: number; onUndone: () => void }) {
  const [offset, setOffset] = useState(0);
  const loaded = useLoad(() => desk.listImports({ orgId, limit: LIMIT, offset }), [orgId, offset, tick]);
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string }>();
  async function undo(id: string, name: string) {
    if (!window.confirm(`Undo the import of ${name}? Its rows are removed from the books.`)) return;
    try {
      const b = await desk.undoImport({ orgId, batchId: id });
      setNotice({ kind: 'ok', text: `Undid the import of ${b.fileName}.` });
      onUndone();
    } catch (error) {
      setNotice({ kind: 'error', text: messageOf(error) });
    }
    loaded.reload();
  }
  return (
    <>
      <h3>Imports</h3>
      {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
      <Show loaded={loaded} what="imports" empty={(d) => (d.totalCount === 0 ? <Empty title="Nothing imported yet." /> : undefined)}>
        {({ batches, totalCount }) => (
          <>
            <TableFrame>
              <table className="grid imports">
                <thead>
                  <tr>
                    <th>When</th>
                    <th>File</th>
                    <th>Into</th>
                    <th className="num">New</th>
                    <th className="num">Duplicates</th>
                    <th>
                      <span className="sr-only">Undo</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {batches.map((b) => (
                    <tr key={b.id}>
                      <td className="nowrap">{b.createdAt.slice(0, 16).replace('T', ' ')}</td>
                      <td className="wrap">
                        {b.fileName} <span className="muted small">{b.format}</span>
                      </td>
                      <td>{b.accounts.map((a) => a.name).join(', ')}</td>
                      <td className="num">{b.imported.toLocaleString()}</td>
                      <td className="num">{b.duplicates.toLocaleString()}</td>
                      <td>{b.undoneAt ? <span className="muted">undone {b.undoneAt.slice(0, 10)}</span> : <button onClick={() => void undo(b.id, b.fileName)}>Undo</button>}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableFrame>
            <Pager offset={offset} limit={LIMIT} total={totalCount} onChange={setOffset} />
          </>
        )}
      </Show>
    </>
  );
}
