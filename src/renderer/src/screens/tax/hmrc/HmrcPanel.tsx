// The HMRC panel of the Tax screen (issue 54, Making Tax Digital for VAT): the
// organization's connection (its VRN, connected or not, until when HMRC's
// permission lasts and the warning near its end, HMRC's sandbox or production),
// connecting (to accountants and owners), HMRC's obligations with the Submit
// form, and what HMRC says is owed and paid. The desk operations are
// desk/tax/hmrc.ts's.
import { useEffect, useState } from 'react';
import type { DeskResult } from '../../../../../main/desk/operations';
import { Notice, Show } from '../../../components';
import { desk } from '../../../desk';
import { useLoad } from '../../../hooks';
import { useCan } from '../../../can';
import { ConnectForm, useHmrcReturn } from './Connect';
import { Obligations } from './Obligations';
import { OwedAndPaid } from './OwedAndPaid';

type Status = DeskResult<'hmrcStatus'>;

function serviceWords(service: Status['service']): string {
  if (!service) return 'No HMRC application is set here (LEDGERDESK_HMRC_CLIENT_ID and LEDGERDESK_HMRC_CLIENT_SECRET): see docs/hmrc.md.';
  if (service.sandbox) return "HMRC's sandbox: test returns only, nothing is filed with HMRC.";
  if (service.apiBase === 'https://api.service.hmrc.gov.uk') return 'HMRC production: returns submitted are filed with HMRC.';
  return `HMRC at ${service.apiBase} (neither HMRC's sandbox nor production).`;
}

function Connection({ s }: { s: Status }) {
  const c = s.connection;
  return (
    <div aria-label="HMRC connection" role="region">
      <p className="muted small">{serviceWords(s.service)}</p>
      {!c ? (
        <p>Not connected to HMRC.</p>
      ) : c.connected ? (
        <p>
          VRN {c.vrn}: connected{c.connectedBy ? ` by ${c.connectedBy}` : ''}, HMRC's permission lasts until {c.refreshExpiresAt?.slice(0, 10)}.
        </p>
      ) : (
        <p>VRN {c.vrn}: not connected (a sign-in to HMRC was begun and not finished).</p>
      )}
      {c?.warning && <Notice kind="error">{c.warning}</Notice>}
    </div>
  );
}

export function HmrcPanel({ orgId, onSubmitted }: { orgId: string; onSubmitted: () => void }) {
  const can = useCan();
  // A sign-in under way (the connection's time before it): on the desktop its loopback listener finishes it, so the
  // connection is watched until it changes.
  const [before, setBefore] = useState<string | null | undefined>(undefined);
  const status = useLoad(() => desk.hmrcStatus({ orgId }), [orgId], before !== undefined ? 2000 : undefined);
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const done = (text: string) => {
    setNotice({ kind: 'ok', text });
    setBefore(undefined);
    status.reload();
  };
  const fail = (text: string) => setNotice({ kind: 'error', text });
  useHmrcReturn(orgId, done, fail);
  const c = status.data?.connection;
  useEffect(() => {
    if (before !== undefined && c?.connected && c.connectedAt !== before) {
      setBefore(undefined);
      setNotice({ kind: 'ok', text: `Connected to HMRC for VRN ${c.vrn}.` });
    }
  }, [before, c]);
  return (
    <section aria-labelledby="hmrc-title">
      <h3 id="hmrc-title">HMRC</h3>
      {notice && (
        <Notice kind={notice.kind} onClose={() => setNotice(undefined)}>
          {notice.text}
        </Notice>
      )}
      <Show loaded={status} what="the connection to HMRC">
        {(s) => (
          <>
            <Connection s={s} />
            {s.service && can('hmrcConnect') && <ConnectForm orgId={orgId} vrn={s.connection?.vrn} started={() => setBefore(c?.connectedAt ?? null)} done={done} fail={fail} />}
            {s.connection?.connected && (
              <>
                <h4>Obligations</h4>
                <Obligations
                  orgId={orgId}
                  declaration={s.declaration}
                  fail={fail}
                  onSubmitted={() => {
                    setNotice(undefined);
                    status.reload();
                    onSubmitted();
                  }}
                />
                <OwedAndPaid orgId={orgId} />
              </>
            )}
          </>
        )}
      </Show>
    </section>
  );
}
