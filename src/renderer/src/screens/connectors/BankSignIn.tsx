// The bank's page to open and the way back (issue 52). In a browser on a
// server: a link followed here, the bank sends the browser back to the server
// and the Connections screen finishes it (useBankReturn). On the desktop: the
// link to open in the computer's browser while the app's loopback listener
// waits for the bank's answer.
import { useEffect } from 'react';
import type { DeskResult } from '../../../../main/desk/operations';
import { Copy } from '../../components';
import { desk, isBrowserMode } from '../../desk';
import { rememberBankSignIn, takeBankReturn } from './bankReturn';

export type SignIn = Extract<DeskResult<'addEnableBankingConnector'>, { link: string }>;
type Said = (text: string) => void;

const connected = (c: { name: string; accounts: unknown[] }) => `Connected "${c.name}": ${c.accounts.length} account(s) reported. Map each to a ledger account below.`;

/** The bank sent the browser back here: the sign-in finished (once) and the screen told. */
export function useBankReturn(orgId: string, done: Said, fail: (e: unknown) => void): void {
  useEffect(() => {
    const back = takeBankReturn(orgId);
    if (back) desk.finishEnableBankingConnector({ orgId, ...back }).then((c) => done(connected(c)), fail);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per organization: the callbacks are new closures each render
  }, [orgId]);
}

export function BankSignInLink({ orgId, signIn, done, fail }: { orgId: string; signIn: SignIn; done: Said; fail: (e: unknown) => void }) {
  const browser = isBrowserMode();
  useEffect(() => {
    if (browser) rememberBankSignIn(orgId, signIn.state);
    // The desktop's listener waits for the bank: this call answers once it came back.
    else desk.finishEnableBankingConnector({ orgId, state: signIn.state }).then((c) => done(connected(c)), fail);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per sign-in
  }, [signIn.state]);
  return (
    <div className="hint" role="status">
      {browser ? (
        <p>
          <a href={signIn.link}>Sign in at {signIn.bank}</a> and consent: the bank sends you back here.
        </p>
      ) : (
        <p>
          Open this link in your browser, sign in at {signIn.bank} and consent (this screen waits for the bank to send you back): <code>{signIn.link}</code>{' '}
          <Copy text={signIn.link} label="Copy the bank's link" />
        </p>
      )}
      <p className="small">The bank sends you back to {signIn.redirectUrl}: it must be one of the application&apos;s redirect URLs in Enable Banking&apos;s control panel.</p>
    </div>
  );
}
