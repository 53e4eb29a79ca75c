// Import: drop a statement, see what it holds (a dry run: new, duplicate,
// possible match, bad), adjust the account and the CSV mapping, confirm; the
// history below lists each import with what it skipped, and undo. Every step
// runs the same desk operation as `ledgerdesk import` (ImportRun.ts).
import { useState, type DragEvent } from 'react';
import { Notice } from '../../components';
import { desk } from '../../desk';
import { useLoad } from '../../hooks';
import { ImportDone, DryRun } from './ImportDryRun';
import { ImportHistory } from './ImportHistory';
import { ImportOptions } from './ImportPreview';
import { useImportRun, type Upload } from './ImportRun';

const ACCEPT = '.csv,.tsv,.txt,.ofx,.qfx,.qif,.xml,.sta,.mt940,.940';

export function Import({ orgId, accountId }: { orgId: string; accountId?: string }) {
  const accounts = useLoad(() => desk.listAccounts({ orgId }), [orgId]);
  const [historyTick, setHistoryTick] = useState(0);
  const run = useImportRun(orgId, accountId, () => {
    setHistoryTick((t) => t + 1);
    accounts.reload();
  });
  const { preview, problem, busy, progress, done } = run;
  return (
    <section aria-labelledby="import-title">
      <div className="screen-head">
        <h2 id="import-title">Import a statement</h2>
      </div>
      <p className="hint">
        CSV, OFX, QFX, QIF, CAMT.053 or MT940, as your bank gives it. You see what it holds before anything is written; rows already in the books are left out.
      </p>
      {done && <ImportDone orgId={orgId} result={done} />}
      <DropZone upload={run.upload} choose={(file) => void run.choose(file)} />
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
      <ImportOptions
        accounts={(accounts.data ?? []).filter((a) => !a.closedAt)}
        preview={preview}
        options={run.options}
        set={run.set}
        problem={problem}
        noAccounts={accounts.data?.length === 0}
      />
      <DryRun run={run} />
      <ImportHistory orgId={orgId} tick={historyTick} onUndone={() => accounts.reload()} />
    </section>
  );
}

/** Where a statement is dropped or picked; the same file picked again (changed on disk, or after an import) is read again. */
function DropZone({ upload, choose }: { upload: Upload | undefined; choose: (file: File | undefined) => void }) {
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    choose(e.dataTransfer.files[0]);
  };
  return (
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
            e.target.value = '';
            choose(file);
          }}
        />
      </label>
      {upload && (
        <p className="muted small">
          {upload.name} ({upload.size.toLocaleString()} bytes)
        </p>
      )}
    </div>
  );
}
