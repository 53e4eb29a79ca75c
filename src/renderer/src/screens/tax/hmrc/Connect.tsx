// Connecting the organization to HMRC (issue 54): the VAT registration number,
// then HMRC's sign-in link. In a browser on a firm's server the link is followed
// here and HMRC sends the browser back to the server, where the panel finishes it
// (browser.ts); the desktop's loopback listener takes HMRC's redirect itself, so
// the app opens the link in the computer's browser (openSignInLink: HMRC's
// sign-in host only), shows it with Copy too, and the panel watches the
// connection. Where the redirect landed elsewhere (another browser), the address
// HMRC sent it back to can be pasted here.
import { useEffect, useState, type FormEvent } from 'react';
import { Copy } from '../../../components';
import { desk, isBrowserMode } from '../../../desk';
import { hmrcWords, rememberSignIn, takeHmrcReturn } from './browser';

/** HMRC sent the browser back here: the sign-in is finished (once) and the panel told. */
export function useHmrcReturn(orgId: string, done: (words: string) => void, fail: (words: string) => void): void {
  useEffect(() => {
    const back = takeHmrcReturn(orgId);
    if (!back) return;
    desk.hmrcConnectFinish({ orgId, ...back }).then(
      (c) => done(`Connected to HMRC for VRN ${c.vrn}.`),
      (e: unknown) => fail(hmrcWords(e)),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per organization: the callbacks are new closures each render
  }, [orgId]);
}

function PasteReturn({ orgId, done, fail }: { orgId: string; done: (words: string) => void; fail: (words: string) => void }) {
  const [address, setAddress] = useState('');
  async function finish(e: FormEvent) {
    e.preventDefault();
    try {
      const q = new URL(address.trim()).searchParams;
      const c = await desk.hmrcConnectFinish({ orgId, code: q.get('code') ?? '', state: q.get('state') ?? '' });
      done(`Connected to HMRC for VRN ${c.vrn}.`);
    } catch (err) {
      fail(err instanceof TypeError ? 'That is not the address HMRC sent you back to (it holds ?code=…&state=…).' : hmrcWords(err));
    }
  }
  return (
    <form className="inline-form" aria-label="Finish with the address HMRC sent you back to" onSubmit={(e) => void finish(e)}>
      <label>
        Address HMRC sent you back to
        <input value={address} size={40} onChange={(e) => setAddress(e.target.value)} />
      </label>
      <button type="submit" disabled={!address.trim()}>
        Finish connecting
      </button>
    </form>
  );
}

export function ConnectForm(props: { orgId: string; vrn?: string; started: () => void; done: (words: string) => void; fail: (words: string) => void }) {
  const { orgId, vrn, done, fail } = props;
  const [typed, setTyped] = useState(vrn ?? '');
  const [link, setLink] = useState<string | null>(null);
  const [opened, setOpened] = useState<boolean | null>(null);
  const browser = isBrowserMode();
  async function connect(e: FormEvent) {
    e.preventDefault();
    try {
      const { url } = await desk.hmrcConnect({ orgId, vrn: typed });
      if (browser) rememberSignIn(orgId, url);
      setLink(url);
      props.started();
      // The desktop hands the link to the computer's browser; the link stays shown to copy should that fail.
      if (!browser)
        setOpened(
          await desk.openSignInLink({ url }).then(
            () => true,
            () => false,
          ),
        );
    } catch (err) {
      fail(hmrcWords(err));
    }
  }
  return (
    <>
      <form className="inline-form" aria-label="Connect to HMRC" onSubmit={(e) => void connect(e)}>
        <label>
          VAT registration number
          <input value={typed} size={14} maxLength={20} onChange={(e) => setTyped(e.target.value)} />
        </label>
        <button type="submit" disabled={!typed.trim()}>
          Connect to HMRC
        </button>
      </form>
      {link && (
        <div className="hint" role="status">
          {browser ? (
            <p>
              <a href={link}>Sign in to HMRC</a> and grant Ledgerdesk access: HMRC sends you back here.
            </p>
          ) : (
            <p>
              {opened
                ? 'HMRC’s sign-in page is open in your browser: sign in and grant Ledgerdesk access (this screen waits for HMRC to send you back). Not there? Open this link: '
                : 'Open this link in your browser, sign in to HMRC and grant Ledgerdesk access (this screen waits for HMRC to send you back): '}
              <code>{link}</code> <Copy text={link} label="Copy HMRC's sign-in link" />
            </p>
          )}
          {browser && <PasteReturn orgId={orgId} done={done} fail={fail} />}
        </div>
      )}
    </>
  );
}
