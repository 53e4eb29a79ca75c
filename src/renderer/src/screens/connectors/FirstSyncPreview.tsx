// The first sync of an account that already holds rows (issue 52): what it
// would write, as the Import screen's preview shows a file (new, already in the
// books, possible match; nothing written), then the person confirms it. Its
// possible matches are held for the person (the held rows panel), as a
// sync holds them.
import { useState } from 'react';
import type { ImportResult } from '../../../../main/ledger/imports/import';
import { desk } from '../../desk';
import { PreviewRows } from '../accounts/ImportPreview';

interface Props {
  orgId: string;
  connector: { id: string; name: string };
  feed: { feedId: string; name: string };
  done: (text: string) => void;
  fail: (e: unknown) => void;
}

export function FirstSyncPreview({ orgId, connector, feed, done, fail }: Props) {
  const [preview, setPreview] = useState<ImportResult>();
  const [busy, setBusy] = useState(false);
  const which = { orgId, connector: connector.id, feedAccount: feed.feedId };
  async function run(what: () => Promise<void>) {
    setBusy(true);
    try {
      await what();
    } catch (e) {
      fail(e);
    } finally {
      setBusy(false);
    }
  }
  const look = () => run(async () => setPreview(await desk.previewFirstSync(which)));
  const confirm = () =>
    run(async () => {
      const r = await desk.confirmFirstSync(which);
      const a = r.accounts.find((x) => x.name === feed.name) ?? r.accounts[0];
      done(
        r.outcome === 'ok' && a?.state === 'synced'
          ? `First sync of "${feed.name}": ${a.imported} new row(s), ${a.duplicates} already in the books.`
          : `First sync: ${r.error ?? r.outcome}.`,
      );
    });
  if (!preview)
    return (
      <button disabled={busy} onClick={() => void look()}>
        See the first sync
      </button>
    );
  return (
    <div className="import-preview" role="region" aria-label={`First sync of ${feed.name}`}>
      <p className="counts">
        <strong>{preview.imported}</strong> new · {preview.duplicates} already in the books · {preview.possibleMatches} possible match (held for you after the sync)
      </p>
      <PreviewRows rows={preview.preview} />
      <button className="approve" disabled={busy} onClick={() => void confirm()}>
        Confirm first sync
      </button>{' '}
      <button disabled={busy} onClick={() => setPreview(undefined)}>
        Not now
      </button>
    </div>
  );
}
