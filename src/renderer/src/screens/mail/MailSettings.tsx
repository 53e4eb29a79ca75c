// The organization's outgoing mail (issue 53): its SMTP server, how it is
// reached, the sign-in and who messages are from, and "Send a test message".
// The password is typed, never shown: the field stays empty, and an empty
// field keeps the one kept. Only an owner changes the settings; a bookkeeper
// reads them and sends the test.
import { useState } from 'react';
import type { MailSettings as Settings } from '../../../../main/ledger/mail/settings';
import { Notice, messageOf } from '../../components';
import { desk } from '../../desk';
import { useLoad } from '../../hooks';
import { useCan } from '../../can';

type Form = { host: string; port: string; tls: 'starttls' | 'tls' | 'none'; user: string; password: string; from: string; replyTo: string };
const formOf = (s: Settings | null | undefined): Form => ({
  host: s?.host ?? '',
  port: String(s?.port ?? 587),
  tls: s?.tls ?? 'starttls',
  user: s?.user ?? '',
  password: '',
  from: s?.from ?? '',
  replyTo: s?.replyTo ?? '',
});

function TestMessage({ orgId, say, fail }: { orgId: string; say: (t: string) => void; fail: (e: unknown) => void }) {
  const [to, setTo] = useState('');
  const send = () => void desk.testMail({ orgId, to }).then((m) => say(`A test message went to ${m.to.join(', ')}: ${m.messageId}`), fail);
  return (
    <form className="inline-form" aria-label="Send a test message" onSubmit={(e) => (e.preventDefault(), send())}>
      <label>
        Test address
        <input type="email" value={to} onChange={(e) => setTo(e.target.value)} required />
      </label>
      <button type="submit">Send a test message</button>
    </form>
  );
}

export function MailSettings({ orgId }: { orgId: string }) {
  const can = useCan();
  const saved = useLoad(() => desk.mailSettings({ orgId }), [orgId]);
  const [typed, setTyped] = useState<Partial<Form>>({});
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const form = { ...formOf(saved.data), ...typed };
  const field = (key: keyof Form) => ({
    value: form[key],
    onChange: (e: { target: { value: string } }) => setTyped({ ...typed, [key]: e.target.value }),
    disabled: !can('setMailSettings'),
  });
  const say = (text: string) => setNotice({ kind: 'ok', text });
  const fail = (err: unknown) => setNotice({ kind: 'error', text: messageOf(err) });
  async function save() {
    try {
      const { password, port, user, replyTo, ...rest } = form;
      await desk.setMailSettings({ orgId, ...rest, port: Number(port), user: user || null, replyTo: replyTo || null, ...(password ? { password } : {}) });
      setTyped({});
      saved.reload();
      say('Mail settings saved.');
    } catch (err) {
      fail(err);
    }
  }
  return (
    <section aria-labelledby="mail-title">
      <div className="screen-head">
        <h2 id="mail-title">Mail</h2>
      </div>
      {notice && (
        <Notice kind={notice.kind} onClose={() => setNotice(undefined)}>
          {notice.text}
        </Notice>
      )}
      <form className="inline-form" aria-label="Mail settings" onSubmit={(e) => (e.preventDefault(), void save())}>
        <label>
          SMTP server
          <input {...field('host')} required />
        </label>
        <label>
          Port
          <input {...field('port')} inputMode="numeric" required />
        </label>
        <label>
          Security
          <select {...field('tls')}>
            <option value="starttls">STARTTLS (required)</option>
            <option value="tls">TLS from the start</option>
            <option value="none">None</option>
          </select>
        </label>
        <label>
          User
          <input {...field('user')} autoComplete="off" />
        </label>
        <label>
          Password
          <input {...field('password')} type="password" autoComplete="new-password" placeholder={saved.data?.passwordSet ? 'kept (type to change)' : ''} />
        </label>
        <label>
          From
          <input {...field('from')} required placeholder="Studio <billing@studio.example>" />
        </label>
        <label>
          Reply to
          <input {...field('replyTo')} />
        </label>
        {can('setMailSettings') && (
          <button type="submit" className="primary">
            Save
          </button>
        )}
      </form>
      {saved.data && can('testMail') && <TestMessage orgId={orgId} say={say} fail={fail} />}
    </section>
  );
}
