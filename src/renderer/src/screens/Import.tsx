// Import: drop a statement, see what it holds (a dry run: new, duplicate,
// possible match, bad), adjust the account and the CSV mapping, confirm; the
// history below lists each import with undo. Every step runs the same desk
// operation as `ledgerdesk import`.
import { useEffect, useState, type DragEvent } from 'react';
import type { DeskInput } from '../../../main/desk/operations';
import type { ImportResult } from '../../../main/ledger/imports/import';
import { Money, Notice, TableFrame, messageOf } from '../components';
import { desk, DeskError } from '../desk';
import { useLoad } from '../hooks';
import { ImportHistory } from './ImportHistory';
import { MappingEditor } from './ImportMapping';

const ACCEPT = '.csv,.tsv,.txt,.ofx,.qfx,.qif,.xml,.sta,.mt940,.940';
type Options = Omit<DeskInput<'importStatement'>, 'orgId' | 'file'>;
type Decision = 'merge' | 'import' | 'held';
const KIND_LABEL = { new: 'new', duplicate: 'duplicate', possible_match: 'possible match' } as const;

export function Import({ orgId, accountId }: { orgId: string; accountId?: string }) {
  const accounts = useLoad(() => desk.listAccounts({ orgId }), [orgId]);
  const [upload, setUpload] = useState<{ uploadId: string; name: string; size: number }>();
  const [options, setOptions] = useState<Options>({ account: accountId });
  const [decisions, setDecisions] = useState<Record<string, Decision>>({});
  const [preview, setPreview] = useState<ImportResult>();
  const [problem, setProblem] = useState<{ field: string; message: string }>();
  const [busy, setBusy] = useState<string>();
  const [progress, setProgress] = useState<number>();
  const [done, setDone] = useState<{ kind: 'ok' | 'error'; text: string; accountId?: string }>();
  const [historyTick, setHistoryTick] = useState(0);
  const open = (accounts.data ?? []).filter((a) => !a.closedAt);

  const run = async (dryRun: boolean) => {
    if (!upload) return;
    setBusy(dryRun ? 'Checking the file…' : 'Importing…');
    setProblem(undefined);
    const chosen = Object.fromEntries(Object.entries(decisions).filter(([, d]) => d !== 'held')) as Record<string, 'merge' | 'import'>;
    try {
      const result = await desk.importStatement({ orgId, file: upload.uploadId, ...options, decisions: chosen, dryRun });
      if (dryRun) setPreview(result);
      else if (result.batchId) {
        setDone({ kind: 'ok', text: `Imported ${result.imported} new row(s) from ${result.fileName}; ${result.duplicates} duplicate(s) left out${result.merged ? `, ${result.merged} matched` : ''}${result.held ? `, ${result.held} possible match(es) held back` : ''}.${result.rules && result.rules.suggested + result.rules.applied ? ` Your rules categorized ${result.rules.applied} and suggested ${result.rules.suggested} (in Approvals).` : ''}`, accountId: result.account?.id ?? undefined });
        setUpload(undefined);
        setPreview(undefined);
        setHistoryTick((t) => t + 1);
        accounts.reload();
      } else setPreview(result);
    } catch (error) {
      const detail = error instanceof DeskError && Array.isArray(error.details) ? (error.details[0] as { field: string; message: string }) : undefined;
      setProblem(detail ?? { field: 'file', message: messageOf(error) });
      if (dryRun) setPreview(undefined);
    } finally {
      setBusy(undefined);
    }
  };

  useEffect(() => {
    void run(true);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [upload?.uploadId, JSON.stringify(options), JSON.stringify(decisions)]);

  useEffect(() => {
    if (!busy || !upload) return setProgress(undefined);
    const timer = setInterval(() => void desk.importProgress({ file: upload.uploadId }).then((p) => setProgress(p?.rows)), 400);
    return () => clearInterval(timer);
  }, [busy, upload]);

  async function choose(file: File | undefined) {
    if (!file) return;
    setDone(undefined);
    setPreview(undefined);
    setDecisions({});
    setOptions({ account: options.account });
    setBusy(`Reading ${file.name}…`);
    try {
      setUpload(await desk.stageStatement({ fileName: file.name, bytes: new Uint8Array(await file.arrayBuffer()) }));
    } catch (error) {
      setProblem({ field: 'file', message: messageOf(error) });
      setBusy(undefined);
    }
  }

  const set = (patch: Partial<Options>) => setOptions((o) => ({ ...o, ...patch }));
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    void choose(e.dataTransfer.files[0]);
  };
  const sections = preview?.accounts ?? [];
  // A question about the whole file (which date format, which columns) is answered above, not skipped.
  const wholeFile = Boolean(preview?.csv && (preview.csv.dateFormats.length > 1 || preview.errors.some((e) => e.field === 'columns' || e.message.includes('date format'))));
  const blocked = !preview || (preview.errors.length > 0 && (!options.skipBadRows || wholeFile));

  return (
    <section aria-labelledby="import-title">
      <div className="screen-head">
        <h2 id="import-title">Import a statement</h2>
      </div>
      <p className="hint">CSV, OFX, QFX, QIF, CAMT.053 or MT940, as your bank gives it. You see what it holds before anything is written; rows already in the books are left out.</p>
      {done && (
        <Notice kind={done.kind}>
          {done.text} {done.accountId && <a href={`#/transactions?account=${done.accountId}`}>See the rows in Transactions</a>}
        </Notice>
      )}
      <div className="dropzone" onDragOver={(e) => e.preventDefault()} onDrop={onDrop}>
        <p>Drop a bank statement here, or</p>
        <label className="button">
          Choose a file
          <input
            className="sr-only"
            type="file"
            accept={ACCEPT}
            aria-label="Statement file"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = ''; // the same file picked again (after an import, or changed on disk) is read again
              void choose(file);
            }}
          />
        </label>
        {upload && <p className="muted small">{upload.name} ({upload.size.toLocaleString()} bytes)</p>}
      </div>
      {busy && (
        <p role="status" className="notice">
          {busy} {progress ? `${progress.toLocaleString()} rows read` : ''}
        </p>
      )}
      {problem && <Notice kind="error">{problem.field !== 'file' ? `${problem.field}: ` : ''}{problem.message}</Notice>}
      {
        <div className="import-options">
          {(sections.length <= 1 || !preview) && (
            <label>
              Account
              <select aria-label="Account" value={options.account ?? ''} onChange={(e) => set({ account: e.target.value || undefined })} aria-invalid={problem?.field === 'account'}>
                <option value="">{preview?.account ? (preview.account.created ? `New account: ${preview.account.name}` : `${preview.account.name} (found from the file)`) : 'Found from the file'}</option>
                {open.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name} ({a.currency})
                  </option>
                ))}
              </select>
            </label>
          )}
          {sections.length > 1 &&
            sections.map((s) => (
              <label key={s.section}>
                Section {s.section + 1}
                <select value={options.accounts?.[String(s.section)] ?? ''} onChange={(e) => set({ accounts: { ...options.accounts, [String(s.section)]: e.target.value } })}>
                  <option value="">{s.created ? `New account: ${s.name}` : s.name}</option>
                  {open.map((a) => (
                    <option key={a.id} value={a.id}>
                      {a.name} ({a.currency})
                    </option>
                  ))}
                </select>
              </label>
            ))}
          {preview?.csv && <MappingEditor csv={preview.csv} options={options} set={set} />}
          {accounts.data?.length === 0 && <p className="hint">A CSV does not name its account: add one in <a href="#/accounts">Accounts</a> first.</p>}
        </div>
      }
      {preview && (
        <div className="import-preview">
          <p className="counts" aria-label="What the file holds">
            <strong>{preview.rows.toLocaleString()}</strong> rows ({preview.format.toUpperCase()}, {preview.encoding}): <strong>{preview.imported.toLocaleString()}</strong> new ·{' '}
            {preview.duplicates.toLocaleString()} duplicate · {preview.possibleMatches} possible match · {preview.errors.length + preview.skipped} to fix
          </p>
          {preview.errors.length > 0 && (
            <div className="errors">
              <p>{wholeFile ? 'Before anything can be imported:' : 'These rows could not be read; nothing is imported until they are fixed or skipped:'}</p>
              <table className="grid">
                <tbody>
                  {preview.errors.map((e, i) => (
                    <tr key={i}>
                      <td>line {e.line}</td>
                      <td>{e.field}</td>
                      <td>{e.message}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {!wholeFile && (
                <label className="check">
                  <input type="checkbox" checked={options.skipBadRows === true} onChange={(e) => set({ skipBadRows: e.target.checked })} /> Skip the bad rows and import the others
                </label>
              )}
            </div>
          )}
          <TableFrame>
<table className="grid">
            <thead>
              <tr>
                <th>Line</th>
                <th>Date</th>
                <th>Description</th>
                <th className="num">Amount</th>
                <th>Is</th>
              </tr>
            </thead>
            <tbody>
              {preview.preview.map((r) => (
                <tr key={r.n} className={r.kind}>
                  <td>{r.line}</td>
                  <td className="nowrap">{r.date}</td>
                  <td className="wrap">{r.description}</td>
                  <td className="num">
                    <Money amount={r.amount} currency={r.currency} />
                  </td>
                  <td>
                    <span className={`status ${r.kind}`}>{KIND_LABEL[r.kind]}</span>
                    {r.note && <div className="small muted">{r.note}</div>}
                    {r.match && (
                      <div className="small muted">
                        {r.kind === 'duplicate' ? 'already in the books' : `may be ${r.match.date} “${r.match.description}” (${r.match.reason})`}
                      </div>
                    )}
                    {r.kind === 'possible_match' && (
                      <select aria-label={`Line ${r.line}: same transaction?`} value={decisions[String(r.n)] ?? 'held'} onChange={(e) => setDecisions({ ...decisions, [String(r.n)]: e.target.value as Decision })}>
                        <option value="held">Decide later (hold back)</option>
                        <option value="merge">Same transaction (keep mine, take the bank's date)</option>
                        <option value="import">A different one (import it)</option>
                      </select>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
</TableFrame>
          {preview.ignored.length > 0 && (
            <div className="muted small">
              {preview.ignored.length} part(s) of the file are left out:
              <ul>
                {preview.ignored.slice(0, 5).map((i) => (
                  <li key={i.line}>
                    line {i.line}: {i.reason}
                  </li>
                ))}
              </ul>
            </div>
          )}
          {preview.nothingNew && !preview.errors.length ? (
            <Notice kind="ok">
              Nothing new: the {preview.rows.toLocaleString()} row(s) of {preview.fileName} are already in {preview.account?.name ?? 'the books'}
              {preview.held ? `, but for ${preview.held} possible match(es) to decide above` : ''}. There is nothing to import.
            </Notice>
          ) : (
            <button className="approve" disabled={blocked || Boolean(busy)} onClick={() => void run(false)}>
              Import {preview.imported.toLocaleString()} new row(s){preview.account ? ` into ${preview.account.name}` : ''}
            </button>
          )}
        </div>
      )}
      <ImportHistory orgId={orgId} tick={historyTick} onUndone={() => accounts.reload()} />
    </section>
  );
}
