// People (issue 45, owners): who signs in to these books and with which role,
// whether they have set their password and a second factor, the tokens each
// made (revocable here), a new link for one who lost theirs, and adding a person:
// their invitation link is shown once to copy and send. The machine's owner's
// tokens are listed too.
import { useState, type FormEvent } from 'react';
import type { DeskResult } from '../../../../main/desk/operations';
import { ROLES, type Role } from '../../can';
import { Copy, Empty, Notice, Show, TableFrame, messageOf } from '../../components';
import { desk } from '../../desk';
import { useLoad } from '../../hooks';

type Listed = DeskResult<'listPeople'>;
type Person = Listed['people'][number];
type Token = Person['tokens'][number];
/** Runs a change and says how it went (true: done), the list read again either way. */
type Act = (what: () => Promise<unknown>, done: string) => Promise<boolean>;

const ROLE_WORDS: Record<Role, string> = {
  owner: 'everything, and the people and settings',
  accountant: 'the books, closing dates, tax returns, exports and journals',
  bookkeeper: 'the books, and approves proposals',
  preparer: 'proposes categories, splits, notes and journals for a bookkeeper to approve',
  client: 'the dashboard, reports, invoices and bills, and their own receipts',
};

function RoleSelect({ value, onChange, label }: { value: Role; onChange: (r: Role) => void; label: string }) {
  return (
    <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value as Role)}>
      {ROLES.map((r) => (
        <option key={r} value={r}>
          {r}
        </option>
      ))}
    </select>
  );
}

/** A one-time link to hand to the person: shown once, to copy. */
function LinkOnce({ link, onClose }: { link: { who: string; url: string }; onClose: () => void }) {
  return (
    <div className="card once" role="region" aria-label="Invitation link">
      <h3>Link for {link.who}</h3>
      <p>Send it to them yourself: it sets their password, works once and for 7 days, and is not shown again.</p>
      <div className="token-line">
        <input readOnly aria-label="Invitation link" value={link.url} onFocus={(e) => e.target.select()} />
        <Copy text={link.url} label="Copy invitation link" />
      </div>
      <button onClick={onClose}>Done</button>
    </div>
  );
}

function Tokens({ tokens, act, orgId }: { tokens: Token[]; act: Act; orgId: string }) {
  if (!tokens.length) return <span className="muted">none</span>;
  return (
    <ul className="plain" aria-label="Tokens">
      {tokens.map((t) => (
        <li key={t.id} className={t.revoked ? 'muted' : undefined}>
          {t.name} <span className="small muted">{t.scopes.join(', ')}</span>{' '}
          {t.revoked ? (
            <span className="small">revoked</span>
          ) : (
            <button
              aria-label={`Revoke ${t.name}`}
              onClick={() =>
                window.confirm(`Revoke “${t.name}”? Agents using it are refused from their next request.`) && act(() => desk.revokeToken({ orgId, id: t.id }), `Revoked ${t.name}.`)
              }
            >
              Revoke
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

function PersonRow({ p, me, orgId, act, onLink }: { p: Person; me: boolean; orgId: string; act: Act; onLink: (who: string, url: string) => void }) {
  const reset = () => {
    if (!window.confirm(`A new link for ${p.name}? Their password and second factor are cleared and every session of theirs ends.`)) return;
    act(async () => {
      const r = await desk.resetPerson({ orgId, email: p.email });
      if (r.invitationUrl) onLink(p.name, r.invitationUrl);
    }, `A new link for ${p.name}: their old password no longer works.`);
  };
  const remove = () =>
    window.confirm(`Remove ${p.name} from these books? Their tokens here are revoked.`) &&
    act(() => desk.removePerson({ email: p.email, organization: orgId }), `Removed ${p.name}.`);
  return (
    <tr>
      <td>
        {p.name}
        {me && <span className="muted"> (you)</span>}
      </td>
      <td>{p.email}</td>
      <td>
        <RoleSelect label={`Role of ${p.name}`} value={p.role} onChange={(role) => act(() => desk.setPersonRole({ orgId, email: p.email, role }), `${p.name} is now ${role}.`)} />
      </td>
      <td>
        {p.active ? 'active' : 'invited'}
        {p.totp && <span className="badge">2FA</span>}
      </td>
      <td>
        <Tokens tokens={p.tokens} act={act} orgId={orgId} />
      </td>
      <td className="actions">
        <button onClick={reset} aria-label={`New link for ${p.name}`}>
          New link
        </button>
        <button className="reject" onClick={remove} aria-label={`Remove ${p.name}`}>
          Remove
        </button>
      </td>
    </tr>
  );
}

function AddPerson({ orgId, act, onLink }: { orgId: string; act: Act; onLink: (who: string, url: string) => void }) {
  const empty = { email: '', name: '', role: 'bookkeeper' as Role };
  const [form, setForm] = useState(empty);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    act(async () => {
      const r = await desk.addPerson({ orgId, ...form });
      setForm(empty);
      if (r.invitationUrl) onLink(r.person.name, r.invitationUrl);
    }, `Added ${form.name} as ${form.role}.`);
  };
  return (
    <form className="inline-form" aria-label="Add a person" onSubmit={submit}>
      <label>
        Email
        <input required type="email" maxLength={254} value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />
      </label>
      <label>
        Name
        <input required maxLength={200} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
      </label>
      <label>
        Role
        <RoleSelect label="Role" value={form.role} onChange={(role) => setForm({ ...form, role })} />
      </label>
      <button type="submit">Add person</button>
    </form>
  );
}

/** The organization's "everyone gives a second factor": ticked at once, put back by the reload if refused. */
function RequireTotp({ required, orgId, act }: { required: boolean; orgId: string; act: Act }) {
  const [on, setOn] = useState(required);
  return (
    <label className="check">
      <input
        type="checkbox"
        checked={on}
        onChange={(e) => {
          const next = e.target.checked;
          setOn(next);
          void act(
            () => desk.requireSecondFactor({ orgId, required: next }),
            next ? 'Everyone here now needs a second factor to open these books.' : 'A second factor is no longer required here.',
          ).then((ok) => ok || setOn(!next));
        }}
      />{' '}
      Require a second factor (an authenticator app's code) of everyone here
    </label>
  );
}

/** `me`: the email of whom is signed in (none: the machine's owner). */
export function People({ orgId, me }: { orgId: string; me?: string }) {
  const loaded = useLoad(() => desk.listPeople({ orgId }), [orgId]);
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const [link, setLink] = useState<{ who: string; url: string }>();
  const act: Act = (what, done) => {
    setNotice(undefined);
    // Reloaded either way: a refused role change shows the role as it stays.
    return what()
      .then(
        () => (setNotice({ kind: 'ok', text: done }), true),
        (err: unknown) => (setNotice({ kind: 'error', text: messageOf(err) }), false),
      )
      .finally(loaded.reload);
  };
  const onLink = (who: string, url: string) => setLink({ who, url });
  return (
    <section aria-labelledby="people-title">
      <div className="screen-head">
        <h2 id="people-title">People</h2>
      </div>
      <p className="hint">
        Everyone who signs in to these books in a browser, with their role:{' '}
        {ROLES.map((r, i) => (
          <span key={r}>
            <strong>{r}</strong> {ROLE_WORDS[r]}
            {i < ROLES.length - 1 ? '; ' : '.'}
          </span>
        ))}
      </p>
      {link && <LinkOnce link={link} onClose={() => setLink(undefined)} />}
      {notice && (
        <Notice kind={notice.kind} onClose={() => setNotice(undefined)}>
          {notice.text}
        </Notice>
      )}
      <AddPerson orgId={orgId} act={act} onLink={onLink} />
      <Show loaded={loaded} what="people">
        {(d) => (
          <>
            <RequireTotp required={d.requireTotp} orgId={orgId} act={act} />
            {d.people.length === 0 ? (
              <Empty title="Nobody else signs in to these books yet.">Add a person above: they get a link to set their password.</Empty>
            ) : (
              <TableFrame>
                <table className="grid" aria-label="People">
                  <thead>
                    <tr>
                      <th>Name</th>
                      <th>Email</th>
                      <th>Role</th>
                      <th>Status</th>
                      <th>Tokens</th>
                      <th>
                        <span className="sr-only">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.people.map((p) => (
                      <PersonRow key={p.id} p={p} me={p.email === me} orgId={orgId} act={act} onLink={onLink} />
                    ))}
                  </tbody>
                </table>
              </TableFrame>
            )}
            <h3>Tokens of the machine's owner</h3>
            <p className="hint">Made in the desktop app, by a command or after the one-time sign-in link.</p>
            <Tokens tokens={d.machineTokens} act={act} orgId={orgId} />
          </>
        )}
      </Show>
    </section>
  );
}
