// Browser mode without a session (issue 45): a person signs in with email and
// password (then their second factor's code), or sets a password from an
// invitation link (#/invitation/<code>). The machine's owner keeps the one-time
// link. Refusals are shown as the server words them.
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Notice } from './components';
import { DeskError, postJson, type SignedIn } from './desk';
import { formatDateTime } from './format';

/** Into the desk: the page loads again without the fragment (an invitation's code goes with it). */
function enter() {
  history.replaceState(null, '', '/');
  location.reload();
}

/** A refusal as the server said it; while locked, until when in the person's own time. */
function refusal(error: unknown): string {
  if (!(error instanceof DeskError)) return error instanceof Error ? error.message : String(error);
  const details = error.details as { until?: string } | { field: string; message: string }[] | null;
  if (error.code === 'rate_limited' && details && 'until' in details && details.until) return `${error.message} (that is ${formatDateTime(details.until)} here)`;
  if (error.code === 'validation_failed' && Array.isArray(details) && details.length)
    return details.map((d) => `${d.field[0].toUpperCase()}${d.field.slice(1)} ${d.message}.`).join(' ');
  return error.message;
}

function Page({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="signin">
      <h1>Ledgerdesk</h1>
      <h2>{title}</h2>
      {children}
    </main>
  );
}

/** Posts a form's JSON; a refusal stays on the form. */
function useSubmit(send: () => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await send();
    } catch (err) {
      setError(refusal(err));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, submit: (e: FormEvent) => void submit(e) };
}

/** The second factor's code, for a session that waits for it. */
function TotpForm() {
  const [code, setCode] = useState('');
  const { busy, error, submit } = useSubmit(async () => {
    await postJson<SignedIn>('/desk/totp', { code: code.trim() });
    enter();
  });
  return (
    <Page title="Second factor">
      <p className="hint">Enter the 6-digit code your authenticator app shows for Ledgerdesk now.</p>
      <form className="stack-form" aria-label="Second factor" onSubmit={submit}>
        <label>
          Code
          <input autoFocus required inputMode="numeric" autoComplete="one-time-code" pattern="\d{6}" maxLength={6} value={code} onChange={(e) => setCode(e.target.value)} />
        </label>
        <button type="submit" className="primary" disabled={busy}>
          Continue
        </button>
      </form>
      {error && <Notice kind="error">{error}</Notice>}
    </Page>
  );
}

/** `totpDue`: the password was right in an earlier visit, the code is still to come. */
export function SignIn({ totpDue = false }: { totpDue?: boolean }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [codeNext, setCodeNext] = useState(totpDue);
  const { busy, error, submit } = useSubmit(async () => {
    const signed = await postJson<SignedIn>('/desk/sign-in', { email: email.trim(), password });
    if (signed.totpDue) setCodeNext(true);
    else enter();
  });
  if (codeNext) return <TotpForm />;
  return (
    <Page title="Sign in">
      <form className="stack-form" aria-label="Sign in" onSubmit={submit}>
        <label>
          Email
          <input autoFocus required type="email" autoComplete="username" maxLength={254} value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label>
          Password
          <input required type="password" autoComplete="current-password" maxLength={1024} value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      {error && <Notice kind="error">{error}</Notice>}
      <p className="hint">
        Forgot your password? Ask an owner of your books for a new link. The machine's owner opens the one-time sign-in link that <code>npm start</code> (or{' '}
        <code>ledgerdesk serve</code>) printed in its terminal, or gets a new one with <code>npm run -s ledgerdesk -- sign-in</code>.
      </p>
    </Page>
  );
}

/** An invitation (or reset) link: a new password, typed twice, then into the desk. */
export function Invitation({ code }: { code: string }) {
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const differ = again !== '' && again !== password;
  const { busy, error, submit } = useSubmit(async () => {
    if (password !== again) throw new Error('The two passwords differ: type the same one twice.');
    await postJson<SignedIn>('/desk/invitation', { code, password });
    enter();
  });
  const about = useInvitationAbout(code);
  return (
    <Page title="Choose your password">
      {about && <InvitedTo about={about} />}
      <p className="hint">
        You were invited to keep books in Ledgerdesk. Choose a password of at least 12 characters that is not a common one (a few unrelated words work well). This link works once.
        Already signing in here? Type the password you sign in with (twice): it joins you to the organization and stays as it is.
      </p>
      <form className="stack-form" aria-label="Choose your password" onSubmit={submit}>
        <label>
          New password
          <input autoFocus required type="password" autoComplete="new-password" minLength={12} maxLength={1024} value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        <label>
          The same again
          <input
            required
            type="password"
            autoComplete="new-password"
            maxLength={1024}
            value={again}
            aria-invalid={differ || undefined}
            onChange={(e) => setAgain(e.target.value)}
          />
        </label>
        {differ && <small className="reads refused">The two passwords differ.</small>}
        <button type="submit" className="primary" disabled={busy || differ}>
          Set password and sign in
        </button>
      </form>
      {error && <Notice kind="error">{error}</Notice>}
    </Page>
  );
}

interface About {
  email: string;
  known: boolean;
  organizations: { name: string; role: string }[];
}

/** What the link is for, asked once (nothing spent); a used or expired link says so when the password is sent. */
function useInvitationAbout(code: string): About | undefined {
  const [about, setAbout] = useState<About>();
  useEffect(() => {
    postJson<About>('/desk/invitation/about', { code }).then(setAbout, () => setAbout(undefined));
  }, [code]);
  return about;
}

/** "For dana@firm.example, to keep the books of Hartley Studio as bookkeeper." */
function InvitedTo({ about }: { about: About }) {
  const books = about.organizations.map((o) => `${o.name} as ${o.role}`).join(', ');
  return (
    <p className="lede" aria-label="What this invitation is for">
      For <strong>{about.email}</strong>
      {books ? `, to keep the books of ${books}` : ''}.
    </p>
  );
}
