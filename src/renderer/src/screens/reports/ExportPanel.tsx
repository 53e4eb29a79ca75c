// Exports for the accountant: the period's transactions as CSV, an hledger
// journal or a Beancount file, made by the same operation as `ledgerdesk export`.
import { useState } from 'react';
import { EXTERNAL_LINKS } from '../../../../shared/web';
import { Notice, messageOf } from '../../components';
import { desk, isBrowserMode } from '../../desk';
import { DESK_HTTP_PREFIX } from '../../../../shared/desk';

/** Hands a file to the browser's (or the app's) download. */
export function saveBlob(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export const saveText = (name: string, text: string): void => saveBlob(name, new Blob([text], { type: 'text/csv;charset=utf-8' }));

export function ExportPanel({ orgId, from, to }: { orgId: string; from?: string; to?: string }) {
  const [format, setFormat] = useState<'csv' | 'hledger' | 'beancount'>('hledger');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string }>();
  async function run() {
    setBusy(true);
    try {
      const made = await desk.exportBooks({ orgId, format, from, to });
      if (isBrowserMode()) {
        const a = document.createElement('a');
        a.href = `${DESK_HTTP_PREFIX}/download/${made.exportId}?${new URLSearchParams({ orgId })}`;
        a.download = made.fileName;
        a.click();
      } else {
        const { fileName, bytes } = await desk.downloadExport({ orgId, exportId: made.exportId! });
        saveBlob(fileName, new Blob([bytes as BlobPart]));
      }
      setNotice({ kind: 'ok', text: `Exported ${made.rows} transaction(s) as ${made.fileName}.` });
    } catch (error) {
      setNotice({ kind: 'error', text: messageOf(error) });
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="no-print">
      <h3>Export for the accountant</h3>
      <p className="hint">
        The transactions {from ? `from ${from} to ${to}` : 'of all time'}, each a balanced entry between its account and its category (uncategorized ones against a suspense
        account), with the opening balances.{' '}
        <a href={EXTERNAL_LINKS.hledger} target="_blank" rel="noopener noreferrer">
          hledger
        </a>{' '}
        and{' '}
        <a href={EXTERNAL_LINKS.beancount} target="_blank" rel="noopener noreferrer">
          Beancount
        </a>{' '}
        read these files as they are.
      </p>
      <div className="inline-form">
        <label>
          Format
          <select value={format} onChange={(e) => setFormat(e.target.value as typeof format)}>
            <option value="hledger">hledger journal</option>
            <option value="beancount">Beancount</option>
            <option value="csv">CSV</option>
          </select>
        </label>
        <button disabled={busy} onClick={() => void run()}>
          Export
        </button>
      </div>
      {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
    </div>
  );
}
