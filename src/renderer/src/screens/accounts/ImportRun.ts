// The Import screen's state: the staged file, how to read it (account,
// mapping, skipping), the decisions on possible matches, and the dry run that
// follows every change of them; confirming runs the same operation for real.
import { useEffect, useRef, useState } from 'react';
import type { ImportResult } from '../../../../main/ledger/imports/import';
import { messageOf } from '../../components';
import { desk, DeskError } from '../../desk';
import type { Decision, Options } from './ImportPreview';

export interface Upload {
  uploadId: string;
  name: string;
  size: number;
}

/** The field a refusal names (the account, the date format...), else the file. */
function problemOf(error: unknown): { field: string; message: string } {
  const detail = error instanceof DeskError && Array.isArray(error.details) ? (error.details[0] as { field: string; message: string }) : undefined;
  return detail ?? { field: 'file', message: messageOf(error) };
}

/** How many rows a long read has got through, asked while busy. */
function useProgress(busy: string | undefined, upload: Upload | undefined): number | undefined {
  const [progress, setProgress] = useState<number>();
  useEffect(() => {
    if (!busy || !upload) return setProgress(undefined);
    const timer = setInterval(() => void desk.importProgress({ file: upload.uploadId }).then((p) => setProgress(p?.rows)), 400);
    return () => clearInterval(timer);
  }, [busy, upload]);
  return progress;
}

export function useImportRun(orgId: string, accountId: string | undefined, onImported: () => void) {
  const [upload, setUpload] = useState<Upload>();
  const [options, setOptions] = useState<Options>({ account: accountId });
  const [decisions, setDecisions] = useState<Record<string, Decision>>({});
  const [preview, setPreview] = useState<ImportResult>();
  const [problem, setProblem] = useState<{ field: string; message: string }>();
  const [busy, setBusy] = useState<string>();
  const progress = useProgress(busy, upload);
  const [done, setDone] = useState<ImportResult>();
  // Only the latest run speaks: a dry run for the account picked a moment ago, answering after the one for the
  // account picked now, would show the other account's rows (and name it on the Import button).
  const latest = useRef(0);

  const run = async (dryRun: boolean) => {
    if (!upload) return;
    const id = ++latest.current;
    // An import itself always speaks: its rows are in the books whatever was picked since.
    const current = () => !dryRun || id === latest.current;
    setBusy(dryRun ? 'Checking the file…' : 'Importing…');
    setProblem(undefined);
    const chosen = Object.fromEntries(Object.entries(decisions).filter(([, d]) => d !== 'held')) as Record<string, 'merge' | 'import' | 'transfer'>;
    try {
      const result = await desk.importStatement({ orgId, file: upload.uploadId, ...options, decisions: chosen, dryRun });
      if (!current()) return;
      if (dryRun || !result.batchId) setPreview(result);
      else {
        setDone(result);
        setUpload(undefined);
        setPreview(undefined);
        onImported();
      }
    } catch (error) {
      if (!current()) return;
      setProblem(problemOf(error));
      if (dryRun) setPreview(undefined);
    } finally {
      if (current()) setBusy(undefined);
    }
  };

  useEffect(() => {
    void run(true);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- options and decisions count by value; run reads the latest state
  }, [upload?.uploadId, JSON.stringify(options), JSON.stringify(decisions)]);

  /** A new file: read with the account chosen, everything else as the file says. */
  async function choose(file: File | undefined) {
    if (!file) return;
    setDone(undefined);
    setPreview(undefined);
    setDecisions({});
    setOptions({ account: options.account });
    setBusy(`Reading ${file.name}…`);
    try {
      setUpload(await desk.stageStatement({ orgId, fileName: file.name, bytes: new Uint8Array(await file.arrayBuffer()) }));
    } catch (error) {
      setProblem({ field: 'file', message: messageOf(error) });
      setBusy(undefined);
    }
  }

  const set = (patch: Partial<Options>) => setOptions((o) => ({ ...o, ...patch }));
  const decide = (n: number, d: Decision) => setDecisions((all) => ({ ...all, [String(n)]: d }));
  return { upload, options, set, decisions, decide, preview, problem, busy, progress, done, choose, confirm: () => void run(false) };
}

export type ImportRun = ReturnType<typeof useImportRun>;
