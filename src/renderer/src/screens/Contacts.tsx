// Contacts (issue 29): the organization's customers and vendors, one list
// (a contact can be both); add one, archive or restore one. The seed
// counterparties of the ontology are vendors.
import { useState, type FormEvent } from 'react';
import type { Contact } from '../../../main/ledger/contacts/contacts';
import { Notice, Show, TableFrame, messageOf } from '../components';
import { desk } from '../desk';
import { useLoad } from '../hooks';

const EMPTY = { name: '', customer: true, vendor: false, email: '', termsDays: '' };

function NewContact({ orgId, onAdded, fail }: { orgId: string; onAdded: (c: Contact) => void; fail: (e: unknown) => void }) {
  const [f, setF] = useState(EMPTY);
  async function submit(e: FormEvent) {
    e.preventDefault();
    try {
      onAdded(
        await desk.addContact({ orgId, name: f.name, customer: f.customer, vendor: f.vendor, email: f.email || null, termsDays: f.termsDays === '' ? null : Number(f.termsDays) }),
      );
      setF(EMPTY);
    } catch (err) {
      fail(err);
    }
  }
  return (
    <form className="inline-form" aria-label="New contact" onSubmit={(e) => void submit(e)}>
      <label>
        Name
        <input required maxLength={200} value={f.name} onChange={(e) => setF({ ...f, name: e.target.value })} />
      </label>
      <label className="check">
        <input type="checkbox" checked={f.customer} onChange={(e) => setF({ ...f, customer: e.target.checked })} /> Customer
      </label>
      <label className="check">
        <input type="checkbox" checked={f.vendor} onChange={(e) => setF({ ...f, vendor: e.target.checked })} /> Vendor
      </label>
      <label>
        Email
        <input type="email" maxLength={200} value={f.email} onChange={(e) => setF({ ...f, email: e.target.value })} />
      </label>
      <label>
        Terms (days)
        <input inputMode="numeric" pattern="\d{1,3}" size={4} value={f.termsDays} onChange={(e) => setF({ ...f, termsDays: e.target.value })} />
      </label>
      <button type="submit">Add contact</button>
    </form>
  );
}

export function Contacts({ orgId }: { orgId: string }) {
  const [role, setRole] = useState<'' | 'customer' | 'vendor'>('');
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const contacts = useLoad(() => desk.listContacts({ orgId, role: role || undefined, archived: true }), [orgId, role]);
  const fail = (err: unknown) => setNotice({ kind: 'error', text: messageOf(err) });
  const toggle = (c: Contact) =>
    void (c.archived ? desk.restoreContact({ orgId, contact: c.id }) : desk.archiveContact({ orgId, contact: c.id })).then(() => contacts.reload(), fail);
  return (
    <section aria-labelledby="contacts-title">
      <div className="screen-head">
        <h2 id="contacts-title">Contacts</h2>
      </div>
      {notice && (
        <Notice kind={notice.kind} onClose={() => setNotice(undefined)}>
          {notice.text}
        </Notice>
      )}
      <NewContact orgId={orgId} onAdded={(c) => (setNotice({ kind: 'ok', text: `Added ${c.name}.` }), contacts.reload())} fail={fail} />
      <form className="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Show
          <select value={role} onChange={(e) => setRole(e.target.value as '' | 'customer' | 'vendor')}>
            <option value="">customers and vendors</option>
            <option value="customer">customers</option>
            <option value="vendor">vendors</option>
          </select>
        </label>
      </form>
      <Show loaded={contacts} what="the contacts">
        {(cs) => (
          <TableFrame>
            <table className="grid" aria-label="Contacts">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Role</th>
                  <th>Email</th>
                  <th className="num">Terms</th>
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {cs.map((c) => (
                  <tr key={c.id} className={c.archived ? 'muted' : undefined}>
                    <td>{c.name}</td>
                    <td>{[c.customer && 'customer', c.vendor && 'vendor'].filter(Boolean).join(', ')}</td>
                    <td>{c.email ?? ''}</td>
                    <td className="num">{c.termsDays === null ? '' : `${c.termsDays} days`}</td>
                    <td>
                      <button onClick={() => toggle(c)} aria-label={`${c.archived ? 'Restore' : 'Archive'} ${c.name}`}>
                        {c.archived ? 'Restore' : 'Archive'}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableFrame>
        )}
      </Show>
    </section>
  );
}
