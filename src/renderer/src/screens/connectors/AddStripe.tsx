// Paste a Stripe restricted key (issue 52): kept sealed, used to read the
// balance's transactions; its one currency's balance can be mapped at once.
import { useState, type FormEvent } from 'react';
import { desk } from '../../desk';

export function AddStripe({ orgId, done, fail }: { orgId: string; done: (text: string) => void; fail: (e: unknown) => void }) {
  const [f, setF] = useState({ name: 'Stripe', key: '', account: '' });
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    try {
      const c = await desk.addStripeConnector({ orgId, name: f.name, key: f.key, account: f.account.trim() || undefined });
      done(`Connected "${c.name}": ${c.accounts.length} account(s) reported.`);
      setF({ ...f, key: '' });
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="inline-form" aria-label="Add Stripe" onSubmit={(e) => void submit(e)}>
      <label>
        Name
        <input required value={f.name} onChange={(e) => setF({ ...f, name: e.target.value })} />
      </label>
      <label>
        Stripe restricted key (rk_...)
        <input required type="password" autoComplete="off" value={f.key} onChange={(e) => setF({ ...f, key: e.target.value })} />
      </label>
      <label>
        Into account (optional)
        <input value={f.account} placeholder="e.g. Stripe balance" onChange={(e) => setF({ ...f, account: e.target.value })} />
      </label>
      <button disabled={busy}>Connect</button>
    </form>
  );
}
