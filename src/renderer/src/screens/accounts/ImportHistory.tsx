// The history of imports, newest first: what each brought in and what it
// skipped (opened to the list, downloadable to fix), each with undo (refused,
// with the reason, when a person's work rests on its rows).
import { Fragment, useState } from 'react';
import type { ImportBatch } from '../../../../main/ledger/imports/batches';
import { Empty, Notice, Pager, Show, TableFrame, messageOf } from '../../components';
import { desk } from '../../desk';
import { useLoad } from '../../hooks';
import { SkippedRows } from './ImportSkipped';

const LIMIT = 20;

export function ImportHistory({ orgId, tick, onUndone }: { orgId: string; tick: number; onUndone: () => void }) {
  const [offset, setOffset] = useState(0);
  const [opened, setOpened] = useState<string>();
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
                    <th className="num">Skipped</th>
                    <th>
                      <span className="sr-only">Undo</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {batches.map((b) => (
                    <Fragment key={b.id}>
                      <BatchRow batch={b} opened={opened === b.id} toggle={() => setOpened(opened === b.id ? undefined : b.id)} undo={() => void undo(b.id, b.fileName)} />
                      {opened === b.id && (
                        <tr>
                          <td colSpan={7}>
                            <SkippedRows orgId={orgId} batchId={b.id} fileName={b.fileName} rows={b.skippedRows} total={b.skipped} />
                          </td>
                        </tr>
                      )}
                    </Fragment>
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

function BatchRow({ batch: b, opened, toggle, undo }: { batch: ImportBatch; opened: boolean; toggle: () => void; undo: () => void }) {
  return (
    <tr>
      <td className="nowrap">{b.createdAt.slice(0, 16).replace('T', ' ')}</td>
      <td className="wrap">
        {b.fileName} <span className="muted small">{b.format}</span>
      </td>
      <td>{b.accounts.map((a) => a.name).join(', ')}</td>
      <td className="num">{b.imported.toLocaleString()}</td>
      <td className="num">{b.duplicates.toLocaleString()}</td>
      <td className="num">
        {b.skipped ? (
          <button className="link" aria-expanded={opened} onClick={toggle} aria-label={`${b.skipped} skipped in ${b.fileName}: show them`}>
            {b.skipped.toLocaleString()} skipped
          </button>
        ) : (
          0
        )}
      </td>
      <td>{b.undoneAt ? <span className="muted">undone {b.undoneAt.slice(0, 10)}</span> : <button onClick={undo}>Undo</button>}</td>
    </tr>
  );
}
