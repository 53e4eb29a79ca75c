// Connections (issue 52): the bank feeds that sync into the books, each with its
// status and accounts; add SimpleFIN by pasting a setup token. How it works:
// docs/connectors.md.
import { useState } from 'react';
import { Empty, Notice, Show, messageOf } from '../../components';
import { desk } from '../../desk';
import { useLoad } from '../../hooks';
import { useCan } from '../../can';
import { AddSimplefin } from './AddSimplefin';
import { AddStripe } from './AddStripe';
import { ConnectorCard } from './ConnectorCard';

export function Connections({ orgId }: { orgId: string }) {
  const loaded = useLoad(() => desk.listConnections({ orgId }), [orgId]);
  const can = useCan();
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const done = (text: string) => {
    setNotice({ kind: 'ok', text });
    loaded.reload();
  };
  const fail = (e: unknown) => {
    setNotice({ kind: 'error', text: messageOf(e) });
    loaded.reload();
  };
  return (
    <section aria-labelledby="connections-title">
      <div className="screen-head">
        <h2 id="connections-title">Connections</h2>
      </div>
      <p className="hint">
        Bank feeds fill the books by themselves, every 6 hours and on demand. Pending rows are shown apart and counted nowhere; a row the bank changed is held for you.
      </p>
      {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
      {can('addSimplefinConnector') && <AddSimplefin orgId={orgId} done={done} fail={fail} />}
      {can('addStripeConnector') && <AddStripe orgId={orgId} done={done} fail={fail} />}
      <Show loaded={loaded} what="the connections">
        {(list) => (list.length === 0 ? <Empty title="No connections yet." /> : list.map((c) => <ConnectorCard key={c.id} orgId={orgId} c={c} done={done} fail={fail} />))}
      </Show>
    </section>
  );
}
