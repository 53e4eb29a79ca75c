// The rows an import skips, listed by line, field and reason before the
// import (the dry run), in its result and in the history, and downloadable
// as a CSV to fix: a CSV statement's own lines plus a reason column, ready to
// import again once fixed (statements/skipped-csv.ts, as `ledgerdesk import
// skipped --out` writes it).
import { useState } from 'react';
import type { RowIssue } from '../../../../main/statements/types';
import { skippedFileName, skippedRowsCsv } from '../../../../main/statements/skipped-csv';
import { Notice, messageOf } from '../../components';
import { desk } from '../../desk';
import { saveText } from '../reports/ExportPanel';

export function IssueTable({ issues, label }: { issues: RowIssue[]; label: string }) {
  return (
    <table className="grid" aria-label={label}>
      <tbody>
        {issues.map((e, i) => (
          <tr key={i}>
            <td className="nowrap">line {e.line}</td>
            <td>{e.field}</td>
            <td>{e.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Downloads an import's skipped rows as a CSV to fix. */
export function SkippedDownload({ orgId, batchId, fileName }: { orgId: string; batchId: string; fileName: string }) {
  const [problem, setProblem] = useState<string>();
  async function download() {
    setProblem(undefined);
    try {
      const skipped = await desk.importSkippedRows({ orgId, batchId });
      saveText(skippedFileName(skipped.fileName), skippedRowsCsv(skipped));
    } catch (error) {
      setProblem(messageOf(error));
    }
  }
  return (
    <>
      <button type="button" onClick={() => void download()}>
        Download the skipped rows to fix ({skippedFileName(fileName)})
      </button>
      {problem && <Notice kind="error">{problem}</Notice>}
    </>
  );
}

/** An import's skipped rows (at most the first 500 are listed; the download holds them all), boxed as the dry run's are. */
export function SkippedRows({ orgId, batchId, fileName, rows, total }: { orgId: string; batchId: string; fileName: string; rows: RowIssue[]; total: number }) {
  return (
    <div className="import-preview">
      <div className="errors">
        <p>
          {total} row(s) of {fileName} were skipped and are not in the books: fix them in the file and import it again.
          {total > rows.length && ` The first ${rows.length} are listed.`}
        </p>
        {rows.length > 0 && <IssueTable issues={rows} label="Skipped rows" />}
        <SkippedDownload orgId={orgId} batchId={batchId} fileName={fileName} />
      </div>
    </div>
  );
}
