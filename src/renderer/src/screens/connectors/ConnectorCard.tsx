// One connector on the Connections screen (issue 52): status, last and next
// sync, the consent's expiry and its warning, the error in words, each reported
// account with what it feeds (map it, see the preview of a first sync waiting
// for it and confirm it), sync now, disconnect (the rows stay).
import { useState } from 'react';
import type { ConnectorView } from '../../../../main/ledger/feeds/view';
import { desk } from '../../desk';
import { formatDateTime } from '../../format';
import { FirstSyncPreview } from './FirstSyncPreview';

interface Props {
  orgId: string;
  c: ConnectorView;
  done: (text: string) => void;
  fail: (e: unknown) => void;
}

const when = (iso: string | null) => (iso ? formatDateTime(iso) : 'never');

function MapAccount({ orgId, c, feedId, done, fail }: Props & { feedId: string }) {
  const [account, setAccount] = useState('');
  async function map() {
    try {
      await desk.mapConnectorAccount({ orgId, connector: c.id, feedAccount: feedId, account });
      done(`Mapped to "${account}".`);
    } catch (e) {
      fail(e);
    }
  }
  return (
    <span className="inline-form">
      <input aria-label={`Ledger account for ${feedId}`} placeholder="Ledger account" value={account} onChange={(e) => setAccount(e.target.value)} />
      <button disabled={!account.trim()} onClick={() => void map()}>
        Map
      </button>
    </span>
  );
}

export function ConnectorCard(props: Props) {
  const { orgId, c, done, fail } = props;
  const act = (run: () => Promise<string>) => () => void run().then(done, fail);
  const sync = act(async () => {
    const r = await desk.syncConnector({ orgId, connector: c.id });
    return r.outcome === 'ok' ? `Synced "${c.name}": ${r.accounts.reduce((n, a) => n + a.imported, 0)} new row(s).` : `"${c.name}": ${r.error ?? 'busy in another process'}`;
  });
  const remove = act(async () => (await desk.removeConnector({ orgId, connector: c.id }), `Disconnected "${c.name}": its rows stay.`));
  return (
    <article className="card" aria-label={`Connector ${c.name}`}>
      <h3>
        {c.name} <small>({c.provider})</small>
      </h3>
      <p>
        Status: <strong>{c.status}</strong>
        {c.syncStatus && `, last sync ${c.syncStatus}`}. Last sync {when(c.lastSyncAt)}; next {when(c.nextSyncAt)}.
        {c.consentExpiresAt && ` Consent until ${c.consentExpiresAt.slice(0, 10)}.`}
        {c.held > 0 && ` ${c.held} row(s) held for you.`}
      </p>
      {c.error && <p role="alert">{c.error}</p>}
      {c.consentWarning && <p role="status">{c.consentWarning}</p>}
      <ul>
        {c.accounts.map((a) => (
          <li key={a.feedId}>
            {a.name} ({a.currency}) → {a.account ? `"${a.account.name}"` : 'not mapped'}
            {a.pending > 0 && `, ${a.pending} pending`} {!a.account && c.status === 'active' && <MapAccount {...props} feedId={a.feedId} />}
            {a.awaitingPreview && <FirstSyncPreview orgId={orgId} connector={c} feed={a} done={done} fail={fail} />}
          </li>
        ))}
      </ul>
      {c.status === 'active' && (
        <p>
          <button onClick={sync}>Sync now</button> <button onClick={remove}>Disconnect</button>
        </p>
      )}
    </article>
  );
}
