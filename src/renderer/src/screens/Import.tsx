// Import: drop a statement, see what it holds (a dry run: new, duplicate,
// possible match, bad), adjust the account and the CSV mapping, confirm; the
// history below lists each import with undo. Every step runs the same desk
// operation as `ledgerdesk import`.
import { useEffect, useState, type DragEvent } from 'react';
import type { ImportResult } from '../../../main/ledger/imports/import';
import { Notice, messageOf } from '../components';
import { desk, DeskError } from '../desk';
import { useLoad } from '../hooks';
import { ImportHistory } from './ImportHistory';
import { ImportOptions, LeftOut, PreviewErrors, PreviewRows, type Decision, type Options } from './ImportPreview';

const ACCEPT = '.csv,.tsv,.txt,.ofx,.qfx,.qif,.xml,.sta,.mt940,.940';

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
    const chosen = Object.fromEntries(Object.entries(decisions).filter(([, d]) => d !== 'held')) as Record<string, 'merge' | 'import' | 'transfer'>;
    try {
      const result = await desk.importStatement({ orgId, file: upload.uploadId, ...options, decisions: chosen, dryRun });
      if (dryRun) setPreview(result);
      else if (result.batchId) {
        setDone({
          kind: 'ok',
          text: `Imported ${result.imported} new row(s) from ${result.fileName}; ${result.duplicates} duplicate(s) left out${result.merged ? `, ${result.merged} matched` : ''}${result.held ? `, ${result.held} possible match(es) held back` : ''}${result.transfers.matched ? `, ${result.transfers.matched} transfer(s) matched with their other side` : ''}${result.payments.matched ? `, ${result.payments.matched} paid the invoice or bill they name` : ''}.${result.payments.possible ? ` ${result.payments.possible} may pay an open invoice or bill: press p on them in Transactions.` : ''}${result.rules && result.rules.suggested + result.rules.applied ? ` Your rules categorized ${result.rules.applied} and suggested ${result.rules.suggested} (in Approvals).` : ''}`,
          accountId: result.account?.id ?? undefined,
        });
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
    // eslint-disable-next-line react-hooks/exhaustive-deps -- options and decisions count by value; run reads the latest state
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
  // A question about the whole file (which date format, which columns) is answered above, not skipped.
  const wholeFile = Boolean(preview?.csv && (preview.csv.dateFormats.length > 1 || preview.errors.some((e) => e.field === 'columns' || e.message.includes('date format'))));
  const blocked = !preview || (preview.errors.length > 0 && (!options.skipBadRows || wholeFile));

  return (
    <section aria-labelledby="import-title">
      <div className="screen-head">
        <h2 id="import-title">Import a statement</h2>
      </div>
      <p className="hint">
        CSV, OFX, QFX, QIF, CAMT.053 or MT940, as your bank gives it. You see what it holds before anything is written; rows already in the books are left out.
      </p>
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
        {upload && (
          <p className="muted small">
            {upload.name} ({upload.size.toLocaleString()} bytes)
          </p>
        )}
      </div>
      {busy && (
        <p role="status" className="notice">
          {busy} {progress ? `${progress.toLocaleString()} rows read` : ''}
        </p>
      )}
      {problem && (
        <Notice kind="error">
          {problem.field !== 'file' ? `${problem.field}: ` : ''}
          {problem.message}
        </Notice>
      )}
      <ImportOptions accounts={open} preview={preview} options={options} set={set} problem={problem} noAccounts={accounts.data?.length === 0} />
      {preview && (
        <div className="import-preview">
          <p className="counts" aria-label="What the file holds">
            <strong>{preview.rows.toLocaleString()}</strong> rows ({preview.format.toUpperCase()}, {preview.encoding}): <strong>{preview.imported.toLocaleString()}</strong> new ·{' '}
            {preview.duplicates.toLocaleString()} duplicate · {preview.possibleMatches} possible match · {preview.errors.length + preview.skipped} to fix
          </p>
          {preview.errors.length > 0 && (
            <PreviewErrors
              errors={preview.errors}
              wholeFile={wholeFile}
              skipBadRows={options.skipBadRows === true}
              setSkip={(skipBadRows) => set({ skipBadRows })}
              skipLocked={options.skipLocked === true}
              setSkipLocked={(skipLocked) => set({ skipLocked })}
            />
          )}
          <PreviewRows rows={preview.preview} decisions={decisions} decide={(n, d) => setDecisions({ ...decisions, [String(n)]: d })} />
          <LeftOut ignored={preview.ignored} />
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
