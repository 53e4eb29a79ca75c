// What a file holds before anything is written (the dry run: counts, a
// warning when its rows are already in another account, the rows to fix or to
// skip, the rows as they will be stored, what is left out), with the button
// that imports it; and what an import did, once done.
import type { ImportResult } from '../../../../main/ledger/imports/import';
import { Notice } from '../../components';
import { LeftOut, PreviewIssues, PreviewRows } from './ImportPreview';
import { SkippedRows } from './ImportSkipped';
import type { ImportRun } from './ImportRun';

/** "3 to fix" while bad rows stop the import, "3 skipped" once they are skipped. */
const issuesCount = (p: ImportResult) => (p.errors.length ? `${p.errors.length} to fix` : `${p.skipped} skipped`);

export function DryRun({ run }: { run: ImportRun }) {
  const { preview, options, set, decisions, decide, busy } = run;
  if (!preview) return null;
  const blocked = preview.errors.length > 0;
  return (
    <div className="import-preview">
      <p className="counts" aria-label="What the file holds">
        <strong>{preview.rows.toLocaleString()}</strong> rows ({preview.format.toUpperCase()}, {preview.encoding}): <strong>{preview.imported.toLocaleString()}</strong> new ·{' '}
        {preview.duplicates.toLocaleString()} duplicate · {preview.possibleMatches} possible match · {issuesCount(preview)}
      </p>
      {preview.warnings.map((w) => (
        <div key={`${w.code} ${w.section}`} className="errors" role="alert">
          {w.message} {w.code !== 'balance_disagrees' && <span className="small">Rows already there would be counted twice.</span>}
        </div>
      ))}
      <PreviewIssues
        preview={preview}
        skipBadRows={options.skipBadRows === true}
        setSkip={(skipBadRows) => set({ skipBadRows })}
        skipLocked={options.skipLocked === true}
        setSkipLocked={(skipLocked) => set({ skipLocked })}
      />
      <PreviewRows rows={preview.preview} decisions={decisions} decide={decide} />
      <LeftOut ignored={preview.ignored} />
      {preview.nothingNew && !blocked ? (
        <Notice kind="ok">
          Nothing new: the {preview.rows.toLocaleString()} row(s) of {preview.fileName} are already in {preview.account?.name ?? 'the books'}
          {preview.held ? `, but for ${preview.held} possible match(es) to decide above` : ''}. There is nothing to import.
        </Notice>
      ) : (
        <button className="approve" disabled={blocked || Boolean(busy)} onClick={run.confirm}>
          Import {preview.imported.toLocaleString()} new row(s){preview.account ? ` into ${preview.account.name}` : ''}
          {preview.skipped ? `, skipping ${preview.skipped}` : ''}
        </button>
      )}
    </div>
  );
}

function doneText(r: ImportResult): string {
  const parts = [
    `Imported ${r.imported} new row(s) from ${r.fileName}; ${r.duplicates} duplicate(s) left out`,
    r.skipped ? `, ${r.skipped} row(s) skipped (below)` : '',
    r.merged ? `, ${r.merged} matched` : '',
    r.held ? `, ${r.held} possible match(es) held back` : '',
    r.transfers.matched ? `, ${r.transfers.matched} transfer(s) matched with their other side` : '',
    r.payments.matched ? `, ${r.payments.matched} paid the invoice or bill they name` : '',
    '.',
    r.payments.possible ? ` ${r.payments.possible} may pay an open invoice or bill: press p on them in Transactions.` : '',
    r.rules && r.rules.suggested + r.rules.applied ? ` Your rules categorized ${r.rules.applied} and suggested ${r.rules.suggested} (in Approvals).` : '',
  ];
  return parts.join('');
}

/** What the import did; the rows it skipped stay listed under it, to download and fix. */
export function ImportDone({ orgId, result }: { orgId: string; result: ImportResult }) {
  const accountId = result.account?.id;
  return (
    <>
      <Notice kind="ok">
        {doneText(result)} {accountId && <a href={`#/transactions?account=${accountId}`}>See the rows in Transactions</a>}
      </Notice>
      {result.skipped > 0 && result.batchId && <SkippedRows orgId={orgId} batchId={result.batchId} fileName={result.fileName} rows={result.skippedRows} total={result.skipped} />}
    </>
  );
}
