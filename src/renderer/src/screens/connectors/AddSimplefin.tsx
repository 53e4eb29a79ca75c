// Paste a SimpleFIN setup token (issue 52): claimed once for an access URL the
// books keep sealed; a connection reporting one account can be mapped at once.
import { useState, type FormEvent } from 'react';
import { desk } from '../../desk';

export function AddSimplefin({ orgId, done, fail }: { orgId: string; done: (text: string) => void; fail: (e: unknown) => void }) {
  const [f, setF] = useState({ name: 'SimpleFIN', setupToken: '', account: '' });
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    try {
      const c = await desk.addSimplefinConnector({ orgId, name: f.name, setupToken: f.setupToken, account: f.account.trim() || undefined });
      done(`Connected "${c.name}": ${c.accounts.length} account(s) reported.`);
      setF({ ...f, setupToken: '' });
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="inline-form" aria-label="Add SimpleFIN" onSubmit={(e) => void submit(e)}>
      <label>
        Name
        <input required value={f.name} onChange={(e) => setF({ ...f, name: e.target.value })} />
      </label>
      <label>
        SimpleFIN setup token
        <input required type="password" autoComplete="off" value={f.setupToken} onChange={(e) => setF({ ...f, setupToken: e.target.value })} />
      </label>
      <label>
        Into account (optional)
        <input value={f.account} placeholder="e.g. Checking" onChange={(e) => setF({ ...f, account: e.target.value })} />
      </label>
      <button disabled={busy}>Connect</button>
    </form>
  );
}
