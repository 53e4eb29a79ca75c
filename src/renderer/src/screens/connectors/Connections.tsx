// Connections (issue 52): the bank feeds that sync into the books, each with its
// status and accounts; connect a bank through Enable Banking, or paste a
// SimpleFIN setup token or a Stripe key; the rows held for the person. How it
// works: docs/connectors.md.
import { useState } from 'react';
import { Empty, Notice, Show, messageOf } from '../../components';
import { desk } from '../../desk';
import { useLoad } from '../../hooks';
import { useCan } from '../../can';
import { useBankReturn } from './BankSignIn';
import { ConnectBank } from './ConnectBank';
import { ConnectorCard } from './ConnectorCard';
import { HeldRows } from './HeldRows';
import { PASTED, PasteSecret } from './PasteSecret';

export function Connections({ orgId }: { orgId: string }) {
  const loaded = useLoad(() => Promise.all([desk.listConnections({ orgId }), desk.listHeldRows({ orgId })]), [orgId]);
  const can = useCan();
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const [adding, setAdding] = useState<'bank' | 'simplefin' | 'stripe'>();
  const done = (text: string) => {
    setNotice({ kind: 'ok', text });
    setAdding(undefined);
    loaded.reload();
  };
  const fail = (e: unknown) => {
    setNotice({ kind: 'error', text: messageOf(e) });
    loaded.reload();
  };
  useBankReturn(orgId, done, fail);
  const offer = (kind: 'bank' | 'simplefin' | 'stripe', op: 'addEnableBankingConnector' | 'addSimplefinConnector' | 'addStripeConnector', label: string) =>
    can(op) && (
      <button aria-pressed={adding === kind} onClick={() => setAdding(adding === kind ? undefined : kind)}>
        {label}
      </button>
    );
  return (
    <section aria-labelledby="connections-title">
      <div className="screen-head">
        <h2 id="connections-title">Connections</h2>
        {offer('bank', 'addEnableBankingConnector', 'Connect a bank (UK, EU)')}
        {offer('simplefin', 'addSimplefinConnector', 'Add SimpleFIN (US, Canada)')}
        {offer('stripe', 'addStripeConnector', 'Add Stripe')}
      </div>
      <p className="hint">
        Bank feeds fill the books by themselves, every 6 hours and on demand. Pending rows are shown apart and counted nowhere; a row the bank changed is held for you.
      </p>
      {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
      {adding === 'bank' && <ConnectBank orgId={orgId} done={done} fail={fail} />}
      {(adding === 'simplefin' || adding === 'stripe') && <PasteSecret key={adding} orgId={orgId} kind={PASTED[adding]} done={done} fail={fail} />}
      <Show loaded={loaded} what="the connections">
        {([list, held]) => (
          <>
            <HeldRows orgId={orgId} rows={held} done={done} fail={fail} />
            {list.length === 0 ? <Empty title="No connections yet." /> : list.map((c) => <ConnectorCard key={c.id} orgId={orgId} c={c} done={done} fail={fail} />)}
          </>
        )}
      </Show>
    </section>
  );
}
