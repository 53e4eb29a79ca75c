// Backups: the automatic daily backups the app keeps, the time of the last
// one, and "Back up now". Restoring is `ledgerdesk restore` with the app stopped.
// Books on a firm's PostgreSQL server are backed up by the server's own tools:
// the screen says so instead.
import { useState } from 'react';
import { Empty, Notice, Show, messageOf } from '../../components';
import { desk } from '../../desk';
import { formatBytes, formatDateTime } from '../../format';
import { useLoad } from '../../hooks';

export function Backups() {
  const loaded = useLoad(() => desk.listBackups({}), []);
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const [busy, setBusy] = useState(false);
  async function now() {
    setBusy(true);
    try {
      const b = await desk.backupNow({});
      setNotice({ kind: 'ok', text: `Backed up to ${b.file} (${formatBytes(b.size)}, ${b.receipts} receipt file(s)).` });
    } catch (error) {
      setNotice({ kind: 'error', text: messageOf(error) });
    } finally {
      setBusy(false);
      loaded.reload();
    }
  }
  const onServer = loaded.data?.server;
  return (
    <section aria-labelledby="backups-title">
      <div className="screen-head">
        <h2 id="backups-title">Backups</h2>
        {loaded.data && !onServer && (
          <button disabled={busy} onClick={() => void now()}>
            Back up now
          </button>
        )}
      </div>
      {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
      <Show loaded={loaded} what="the backups">
        {(b) => {
          if (b.server)
            return (
              <p className="hint">
                These books are kept on a PostgreSQL server, <code>{b.server}</code>: they are backed up with the server&apos;s own tools (pg_dump, its replicas), receipts
                included, not from this screen: <code>ledgerdesk backup --database &lt;address&gt;</code> runs pg_dump as a role that row-level security does not bind. Ask whoever
                runs the server how often and where.
              </p>
            );
          const last = b.backups.find((x) => x.daily);
          return (
            <>
              <p className="hint">
                While Ledgerdesk runs it backs up every organization's books and receipts once a day into <code>{b.folder}</code>, keeping the last {b.kept} daily backups.{' '}
                {last ? `The last automatic backup: ${formatDateTime(last.modifiedAt)}.` : 'No automatic backup yet (the first one runs a minute after start).'} To restore one,
                stop Ledgerdesk and run <code>ledgerdesk restore &lt;file&gt;</code>: the backup is checked first, and the books it replaces are kept as a backup.
              </p>
              {b.backups.length === 0 ? (
                <Empty title="No backups yet." />
              ) : (
                <table className="grid">
                  <thead>
                    <tr>
                      <th>File</th>
                      <th>Made</th>
                      <th className="num">Size</th>
                      <th>Kind</th>
                    </tr>
                  </thead>
                  <tbody>
                    {b.backups.map((f) => (
                      <tr key={f.name}>
                        <td className="wrap">
                          <code>{f.name}</code>
                        </td>
                        <td className="nowrap">{formatDateTime(f.modifiedAt)}</td>
                        <td className="num">{formatBytes(f.size)}</td>
                        <td>{f.daily ? 'daily' : f.name.startsWith('before-restore') ? 'before a restore' : 'by hand'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </>
          );
        }}
      </Show>
    </section>
  );
}
