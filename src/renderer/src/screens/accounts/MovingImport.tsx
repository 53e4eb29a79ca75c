// "Import from Xero / QuickBooks" on the Chart and Contacts screens (issue 50):
// pick the program's own CSV export, see the preview (what is new, matched and
// updated or left, a money account, skipped, each with why), then confirm: the
// same operation with dryRun false, one write. The file is staged as a
// statement is (stageStatement), so the window never names a path.
import { useState } from 'react';
import type { ChartImport } from '../../../../main/ledger/chart/import';
import type { ContactImport } from '../../../../main/ledger/contacts/import';
import { Notice, TableFrame, Words, messageOf } from '../../components';
import { desk } from '../../desk';

type Result = ChartImport | ContactImport;
const ACTIONS: Record<string, string> = { add: 'New', update: 'Update', leave: 'Leave', account: 'Money account', skip: 'Skip' };
const COUNTED: Record<string, string> = { add: 'new', update: 'to update', leave: 'left as they are', account: 'money account(s)', skip: 'skipped' };

const summary = (r: Result) =>
  Object.entries(r.counts)
    .filter(([, n]) => n > 0)
    .map(([a, n]) => `${n} ${COUNTED[a]}`)
    .join(', ');

type Item = Result['items'][number];
/** The row's name as the chart or the contacts show it. */
const nameOf = (i: Item) => ('code' in i && i.code ? `${i.code} ${i.name}` : i.name);
/** What it is here: a category's type, parent and tax code, a money account's kind, a contact's roles and terms. */
function asOf(i: Item): string {
  if (i.action === 'skip') return '';
  if (!('code' in i))
    return [[i.customer && 'customer', i.vendor && 'vendor'].filter(Boolean).join(' and '), i.termsDays !== null && `${i.termsDays} days`].filter(Boolean).join(', ');
  if (i.accountType) return `money account (${i.accountType.replace('_', ' ')})`;
  return [`${i.costOfSales ? 'cost of sales' : i.type}${i.parentCode ? ` under ${i.parentCode}` : ''}`, i.taxCode && `tax ${i.taxCode}`].filter(Boolean).join(', ');
}

function Plan({ result }: { result: Result }) {
  return (
    <TableFrame>
      <table className="grid" aria-label="What the import does">
        <thead>
          <tr>
            <th className="num">Line</th>
            <th>Does</th>
            <th>Name</th>
            <th>As</th>
            <th>Why, and what changes</th>
          </tr>
        </thead>
        <tbody>
          {result.items.map((i) => (
            <tr key={i.line}>
              <td className="num">{i.line}</td>
              <td>{ACTIONS[i.action]}</td>
              <td>{nameOf(i)}</td>
              <td>{asOf(i)}</td>
              <td className="wrap">
                <Words text={i.notes.join('; ')} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}

export function MovingImport({ orgId, what, onDone }: { orgId: string; what: 'chart' | 'contacts'; onDone: () => void }) {
  const [upload, setUpload] = useState<{ uploadId: string; name: string }>();
  const [preview, setPreview] = useState<Result>();
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const [busy, setBusy] = useState(false);
  const run = (file: string, dryRun: boolean): Promise<Result> =>
    what === 'chart' ? desk.importChart({ orgId, file, dryRun, from: 'auto' }) : desk.importContacts({ orgId, file, dryRun, from: 'auto' });
  async function step<T>(work: () => Promise<T>) {
    setBusy(true);
    setNotice(undefined);
    try {
      return await work();
    } catch (error) {
      setNotice({ kind: 'error', text: messageOf(error) });
    } finally {
      setBusy(false);
    }
  }
  const choose = (file: File | undefined) =>
    file &&
    void step(async () => {
      setPreview(undefined);
      const staged = await desk.stageStatement({ orgId, fileName: file.name, bytes: new Uint8Array(await file.arrayBuffer()) });
      setUpload(staged);
      setPreview(await run(staged.uploadId, true));
    });
  const confirm = () =>
    void step(async () => {
      const done = await run(upload!.uploadId, false);
      setPreview(undefined);
      setNotice({ kind: 'ok', text: `Imported ${done.fileName}: ${summary(done)}.` });
      onDone();
    });
  const changes = preview ? preview.counts.add + preview.counts.update + ('account' in preview.counts ? preview.counts.account : 0) : 0;
  return (
    <div className="moving-import">
      <label className="button">
        {busy ? 'Reading…' : 'Import from Xero / QuickBooks'}
        <input
          className="sr-only"
          type="file"
          accept=".csv,text/csv"
          aria-label={`${what === 'chart' ? 'Chart of accounts' : 'Contacts'} export from Xero or QuickBooks Online (CSV)`}
          disabled={busy}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = ''; // the same file picked again is read again
            choose(file);
          }}
        />
      </label>
      {notice && (
        <Notice kind={notice.kind} onClose={() => setNotice(undefined)}>
          {notice.text}
        </Notice>
      )}
      {preview && (
        <div aria-label="Import preview" role="region">
          <p>
            {preview.fileName} ({preview.described}): {summary(preview)}. Nothing is written until you confirm.
          </p>
          {'warnings' in preview &&
            preview.warnings.map((w) => (
              <p key={w} className="hint">
                {w}
              </p>
            ))}
          <Plan result={preview} />
          <p>
            <button disabled={busy || changes === 0} onClick={confirm}>
              {changes === 0 ? 'Nothing to import' : `Import ${changes} change(s)`}
            </button>{' '}
            <button type="button" onClick={() => setPreview(undefined)}>
              Cancel
            </button>
          </p>
        </div>
      )}
    </div>
  );
}
