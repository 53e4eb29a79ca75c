// Tokens: agent access for the current organization. A new token is shown
// once, with ready-to-paste MCP client configurations.
import { useState, type FormEvent } from 'react';
import { EXTERNAL_LINKS } from '../../../../shared/web';
import type { DeskResult } from '../../../../main/desk/operations';
import { Copy, Empty, Notice, Show, TableFrame, Words, messageOf } from '../../components';
import { desk } from '../../desk';
import { formatDateTime } from '../../format';
import { useLoad } from '../../hooks';
import { useCan } from '../../can';

type Created = DeskResult<'createToken'>;

const CLIENTS: [keyof Created['clientConfigs'], string][] = [
  ['claudeCode', 'Claude Code (terminal)'],
  ['cursor', 'Cursor (~/.cursor/mcp.json)'],
  ['vscode', 'VS Code (.vscode/mcp.json)'],
  ['claudeDesktop', 'Claude Desktop and stdio-only clients (mcp-remote)'],
];

function ShownOnce({ created, onClose }: { created: Created; onClose: () => void }) {
  return (
    <div className="card once" role="region" aria-label="New token">
      <h3>Token “{created.info.name}” created</h3>
      <p>Copy it now: it is shown only this once and stored only as a hash.</p>
      <div className="token-line">
        <input readOnly aria-label="New token" value={created.token} onFocus={(e) => e.target.select()} />
        <Copy text={created.token} label="Copy token" />
      </div>
      {CLIENTS.map(([key, title]) => (
        <details key={key}>
          <summary>{title}</summary>
          <pre>{created.clientConfigs[key]}</pre>
          <Copy text={created.clientConfigs[key]} label={`Copy ${title} configuration`} />
        </details>
      ))}
      <button onClick={onClose}>Done</button>
    </div>
  );
}

export function Tokens({ orgId, mcpUrl }: { orgId: string; mcpUrl: string }) {
  const loaded = useLoad(() => desk.listTokens({ orgId }), [orgId]);
  // A token proposes only for whom may propose (a client's only reads).
  const mayPropose = useCan()('categorizeTransactions');
  const offered = mayPropose ? (['read', 'propose-write'] as const) : (['read'] as const);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState({ read: true, 'propose-write': mayPropose });
  const [created, setCreated] = useState<Created>();
  const [error, setError] = useState<string>();

  async function create(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    try {
      const chosen = offered.filter((s) => scopes[s]);
      setCreated(await desk.createToken({ orgId, name, scopes: chosen }));
      setName('');
      loaded.reload();
    } catch (err) {
      setError(messageOf(err));
    }
  }

  async function revoke(id: string, tokenName: string) {
    if (!window.confirm(`Revoke “${tokenName}”? Agents using it are refused from their next request.`)) return;
    try {
      await desk.revokeToken({ orgId, id });
    } catch (err) {
      setError(messageOf(err));
    }
    loaded.reload();
  }

  return (
    <section aria-labelledby="tokens-title">
      <div className="screen-head">
        <h2 id="tokens-title">Tokens</h2>
      </div>
      <p className="hint">
        Agents connect to <code>{mcpUrl}</code> (MCP) or the REST API with a token of this organization. <code>read</code> lets them read the books
        {mayPropose ? (
          <>
            , <code>propose-write</code> lets them propose changes for you to approve.
          </>
        ) : (
          ': a token of yours reads what you may read, and proposes nothing.'
        )}{' '}
        <a href={EXTERNAL_LINKS.mcpClients} target="_blank" rel="noopener noreferrer">
          Connecting an MCP client
        </a>
        .
      </p>
      {created && <ShownOnce created={created} onClose={() => setCreated(undefined)} />}
      <form className="inline-form" onSubmit={create}>
        <label>
          Name
          <input required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. Claude on my laptop" />
        </label>
        {offered.map((s) => (
          <label key={s} className="check">
            <input type="checkbox" checked={scopes[s]} onChange={(e) => setScopes((x) => ({ ...x, [s]: e.target.checked }))} /> {s}
          </label>
        ))}
        <button type="submit" disabled={!name.trim() || (!scopes.read && !scopes['propose-write'])}>
          Create token
        </button>
      </form>
      {error && <Notice kind="error">{error}</Notice>}
      <Show loaded={loaded} what="tokens" empty={(d) => (d.length === 0 ? <Empty title="No tokens yet.">Create one above to let an agent read and propose.</Empty> : undefined)}>
        {(tokens) => (
          <TableFrame>
            <table className="grid">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Scopes</th>
                  <th>Created</th>
                  <th>Last used</th>
                  <th>Status</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {tokens.map((t) => (
                  <tr key={t.id} className={t.revokedAt ? 'revoked' : ''}>
                    <td>{t.name}</td>
                    <td>{t.scopes.join(', ')}</td>
                    <td className="nowrap">{formatDateTime(t.createdAt)}</td>
                    <td className="nowrap">{t.lastUsedAt ? formatDateTime(t.lastUsedAt) : 'never'}</td>
                    <td>{t.revokedAt ? <Words text={`revoked ${formatDateTime(t.revokedAt)}`} /> : 'active'}</td>
                    <td>{!t.revokedAt && <button onClick={() => revoke(t.id, t.name)}>Revoke</button>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableFrame>
        )}
      </Show>
    </section>
  );
}
