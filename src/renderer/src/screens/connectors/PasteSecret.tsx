// Connect a provider by pasting a secret (issue 52): a SimpleFIN setup token
// (claimed once for an access URL the books keep sealed) or a Stripe restricted
// key. A name, the secret, and the ledger account a connection reporting one
// account feeds (optional). The secret leaves the form once sent.
import { useState, type FormEvent } from 'react';
import type { ConnectorView } from '../../../../main/ledger/feeds/view';
import { desk } from '../../desk';

interface Pasted {
  name: string;
  secret: string;
  account?: string;
}

interface Kind {
  /** The form's name ("Add SimpleFIN"). */
  title: string;
  defaultName: string;
  secretLabel: string;
  accountHint: string;
  connect: (orgId: string, f: Pasted) => Promise<ConnectorView>;
}

export const PASTED: Record<'simplefin' | 'stripe', Kind> = {
  simplefin: {
    title: 'Add SimpleFIN',
    defaultName: 'SimpleFIN',
    secretLabel: 'SimpleFIN setup token',
    accountHint: 'e.g. Checking',
    connect: (orgId, f) => desk.addSimplefinConnector({ orgId, name: f.name, setupToken: f.secret, account: f.account }),
  },
  stripe: {
    title: 'Add Stripe',
    defaultName: 'Stripe',
    secretLabel: 'Stripe restricted key (rk_...)',
    accountHint: 'e.g. Stripe balance',
    connect: (orgId, f) => desk.addStripeConnector({ orgId, name: f.name, key: f.secret, account: f.account }),
  },
};

export function PasteSecret({ orgId, kind, done, fail }: { orgId: string; kind: Kind; done: (text: string) => void; fail: (e: unknown) => void }) {
  const [f, setF] = useState({ name: kind.defaultName, secret: '', account: '' });
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    try {
      const c = await kind.connect(orgId, { name: f.name, secret: f.secret, account: f.account.trim() || undefined });
      done(`Connected "${c.name}": ${c.accounts.length} account(s) reported.`);
      setF({ ...f, secret: '' });
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="inline-form" aria-label={kind.title} onSubmit={(e) => void submit(e)}>
      <label>
        Name
        <input required value={f.name} onChange={(e) => setF({ ...f, name: e.target.value })} />
      </label>
      <label>
        {kind.secretLabel}
        <input required type="password" autoComplete="off" value={f.secret} onChange={(e) => setF({ ...f, secret: e.target.value })} />
      </label>
      <label>
        Into account (optional)
        <input value={f.account} placeholder={kind.accountHint} onChange={(e) => setF({ ...f, account: e.target.value })} />
      </label>
      <button disabled={busy}>Connect</button>
    </form>
  );
}
