// Connect a UK or EU bank through Enable Banking (issue 52): the firm's
// application (its id and the .pem file of its private key), the country, the
// bank picked from Enable Banking's list, then the bank's page. In a browser on
// a server the bank sends the browser back to the server, where the
// Connections screen finishes it; on the desktop the app's loopback listener
// takes the answer while this form waits. Then map the accounts on the card.
import { useState, type FormEvent } from 'react';
import type { DeskResult } from '../../../../main/desk/operations';
import { desk } from '../../desk';
import { BankSignInLink, type SignIn } from './BankSignIn';

type Bank = DeskResult<'listEnableBankingBanks'>[number];
const EMPTY = { applicationId: '', privateKey: '', country: 'GB', bank: '', name: 'Bank feed', account: '' };

export function ConnectBank({ orgId, done, fail }: { orgId: string; done: (text: string) => void; fail: (e: unknown) => void }) {
  const [f, setF] = useState(EMPTY);
  const [banks, setBanks] = useState<Bank[]>();
  const [signIn, setSignIn] = useState<SignIn>();
  const [busy, setBusy] = useState(false);
  const app = { orgId, applicationId: f.applicationId, privateKey: f.privateKey, country: f.country };
  const set = (patch: Partial<typeof EMPTY>) => setF({ ...f, ...patch });
  async function run(what: () => Promise<void>) {
    setBusy(true);
    try {
      await what();
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  }
  const findBanks = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const found = await desk.listEnableBankingBanks(app);
      setBanks(found);
      set({ bank: found[0]?.name ?? '' });
    });
  };
  const open = () =>
    run(async () => {
      const r = await desk.addEnableBankingConnector({ ...app, bank: f.bank, name: f.name, account: f.account.trim() || undefined });
      if ('link' in r) setSignIn(r);
    });
  return (
    <div className="card" role="region" aria-label="Connect a bank">
      <form className="inline-form" aria-label="Enable Banking application" onSubmit={findBanks}>
        <label>
          Enable Banking application id
          <input required value={f.applicationId} onChange={(e) => set({ applicationId: e.target.value })} />
        </label>
        <label>
          Its private key (.pem)
          <input required={!f.privateKey} type="file" accept=".pem" onChange={(e) => void e.target.files?.[0]?.text().then((privateKey) => set({ privateKey }))} />
        </label>
        <label>
          Country
          <input required size={3} maxLength={2} value={f.country} onChange={(e) => set({ country: e.target.value.toUpperCase() })} />
        </label>
        <button disabled={busy || !f.privateKey}>Find banks</button>
      </form>
      {banks && (
        <div className="inline-form" role="group" aria-label="Pick the bank">
          <label>
            Bank
            <select value={f.bank} onChange={(e) => set({ bank: e.target.value })}>
              {banks.map((b) => (
                <option key={b.name} value={b.name}>
                  {b.name} (consent up to {b.consentDays} days)
                </option>
              ))}
            </select>
          </label>
          <label>
            Name
            <input value={f.name} onChange={(e) => set({ name: e.target.value })} />
          </label>
          <label>
            Into account (optional)
            <input value={f.account} placeholder="e.g. Current account" onChange={(e) => set({ account: e.target.value })} />
          </label>
          <button disabled={busy || !f.bank} onClick={() => void open()}>
            Open the bank&apos;s page
          </button>
        </div>
      )}
      {signIn && <BankSignInLink orgId={orgId} signIn={signIn} done={(text) => (setSignIn(undefined), setBanks(undefined), done(text))} fail={fail} />}
    </div>
  );
}
