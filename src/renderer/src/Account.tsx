// The person signed in to a browser (issue 45): their name and role, their
// second factor (a secret for their authenticator app, kept once a code from
// it is right), invitations to answer, sign out here or everywhere.
import { useState, type FormEvent } from 'react';
import type { DeskResult } from '../../main/desk/operations';
import { Copy, Notice, messageOf } from './components';
import { desk, signOut, signOutEverywhere } from './desk';
import { Invitations } from './Invitations';

type Person = NonNullable<DeskResult<'appInfo'>['person']>;
type Secret = DeskResult<'newSecondFactor'>;

/** Setting up (or replacing) the second factor: the secret as a QR code, as text and as an otpauth:// address, then a code from the app. */
export function SecondFactorSetup({ onDone, replace = false }: { onDone: () => void; replace?: boolean }) {
  const [secret, setSecret] = useState<Secret>();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const start = () => {
    setError(undefined);
    desk.newSecondFactor({}).then(setSecret, (err: unknown) => setError(messageOf(err)));
  };
  const confirm = async (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    try {
      await desk.confirmSecondFactor({ secret: secret!.secret, code: code.trim() });
      onDone();
    } catch (err) {
      setError(messageOf(err));
    }
  };
  if (!secret)
    return (
      <>
        <button onClick={start}>{replace ? 'Replace the second factor' : 'Set up a second factor'}</button>
        {error && <Notice kind="error">{error}</Notice>}
      </>
    );
  return (
    <div className="second-factor" role="region" aria-label="Second factor setup">
      <p className="hint">Scan this code with an authenticator app (one that shows 6-digit codes), or add its key by address or typed in, then enter the code it shows.</p>
      <img className="qr" src={secret.qr} alt="QR code of the authenticator address" width={180} height={180} />
      <div className="token-line">
        <input readOnly aria-label="Secret key" value={secret.secret} onFocus={(e) => e.target.select()} />
        <Copy text={secret.secret} label="Copy secret key" />
      </div>
      <div className="token-line">
        <input readOnly aria-label="Authenticator address" value={secret.uri} onFocus={(e) => e.target.select()} />
        <Copy text={secret.uri} label="Copy authenticator address" />
      </div>
      <form className="inline-form" aria-label="Confirm the second factor" onSubmit={(e) => void confirm(e)}>
        <label>
          Code from the app
          <input required inputMode="numeric" autoComplete="one-time-code" pattern="\d{6}" maxLength={6} value={code} onChange={(e) => setCode(e.target.value)} />
        </label>
        <button type="submit">Confirm</button>
      </form>
      {error && <Notice kind="error">{error}</Notice>}
    </div>
  );
}

/** The header's account menu: who is signed in, their role here, the second factor, sign out. */
export function AccountMenu({ person, role, orgName, onChanged }: { person: Person; role: string; orgName: string; onChanged: () => void }) {
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();
  const out = (how: () => Promise<unknown>) => () =>
    void how().then(
      () => location.reload(),
      (err: unknown) => setError(messageOf(err)),
    );
  return (
    <details className="account">
      <summary aria-label={`Account: ${person.name}`}>{person.name}</summary>
      <div className="account-panel">
        <p>
          <strong>{person.name}</strong>
          <br />
          <span className="muted">{person.email}</span>
          <br />
          <span className="muted">
            {role} of {orgName}
          </span>
        </p>
        <Invitations onJoined={onChanged} />
        <h3>Second factor</h3>
        <p className="small">{person.totp ? 'On: each sign-in asks for a code from your app.' : 'Off: a password alone signs you in.'}</p>
        {done && <Notice kind="ok">{done}</Notice>}
        <SecondFactorSetup key={String(person.totp)} replace={person.totp} onDone={() => (setDone('Second factor on: the next sign-in asks for its code.'), onChanged())} />
        <p className="actions">
          <button onClick={out(signOut)}>Sign out</button>
          <button onClick={out(signOutEverywhere)} title="Ends your sessions in every browser, this one too">
            Sign out everywhere
          </button>
        </p>
        {error && <Notice kind="error">{error}</Notice>}
      </div>
    </details>
  );
}

/** An organization that asks for a second factor, of a person who has none yet: they set it up before anything else of it. */
export function SecondFactorNeeded({ orgName, onDone }: { orgName: string; onDone: () => void }) {
  return (
    <section aria-labelledby="second-factor-title">
      <div className="screen-head">
        <h2 id="second-factor-title">A second factor first</h2>
      </div>
      <p className="hint">{orgName} asks everyone for a second factor at sign-in. Set one up here with an authenticator app; its books open once the code it shows is confirmed.</p>
      <SecondFactorSetup onDone={onDone} />
    </section>
  );
}
