// Contacts (issue 29): the organization's customers and vendors, one list
// (a contact can be both); add one, edit one (its address, country and VAT
// number are what invoices print: issue 43), archive or restore one. The
// seed counterparties of the ontology are vendors. A customer's "Statement"
// opens its statement of account (StatementOfAccount: PDF, send; issue 53).
import { useState, type FormEvent } from 'react';
import type { Contact } from '../../../../main/ledger/contacts/contacts';
import { COUNTRY_CODES, countryName } from '../../../../shared/countries';
import { Notice, Show, TableFrame, messageOf } from '../../components';
import { desk } from '../../desk';
import { useLoad } from '../../hooks';
import { useCan } from '../../can';
import { MovingImport } from '../accounts/MovingImport';
import { StatementOfAccount } from './StatementOfAccount';

type Form = { name: string; customer: boolean; vendor: boolean; email: string; address: string; country: string; taxNumber: string; termsDays: string };
const EMPTY: Form = { name: '', customer: true, vendor: false, email: '', address: '', country: '', taxNumber: '', termsDays: '' };
const formOf = (c: Contact): Form => ({
  name: c.name,
  customer: c.customer,
  vendor: c.vendor,
  email: c.email ?? '',
  address: c.address ?? '',
  country: c.country ?? '',
  taxNumber: c.taxNumber ?? '',
  termsDays: c.termsDays === null ? '' : String(c.termsDays),
});
/** The form as the operations take it: empty fields clear. */
const inputOf = (f: Form) => ({
  name: f.name,
  customer: f.customer,
  vendor: f.vendor,
  email: f.email || null,
  address: f.address.trim() || null,
  country: f.country || null,
  taxNumber: f.taxNumber.trim() || null,
  termsDays: f.termsDays === '' ? null : Number(f.termsDays),
});
const countries = COUNTRY_CODES.map((code) => ({ code, name: countryName(code) })).sort((a, b) => a.name.localeCompare(b.name));

/** The fields of a contact, for a new one or an edit. */
function ContactForm({ label, start, submit, onCancel }: { label: string; start: Form; submit: (f: Form) => Promise<boolean>; onCancel?: () => void }) {
  const [f, setF] = useState(start);
  async function save(e: FormEvent) {
    e.preventDefault();
    // A new contact's form empties once it is added; a refused one keeps what was typed.
    if ((await submit(f)) && !onCancel) setF(EMPTY);
  }
  return (
    <form className="inline-form" aria-label={label} onSubmit={(e) => void save(e)}>
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
        Address
        <textarea rows={2} maxLength={1000} value={f.address} onChange={(e) => setF({ ...f, address: e.target.value })} />
      </label>
      <label>
        Country
        <select value={f.country} onChange={(e) => setF({ ...f, country: e.target.value })}>
          <option value="">Not said</option>
          {countries.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        VAT number
        <input maxLength={50} size={14} value={f.taxNumber} onChange={(e) => setF({ ...f, taxNumber: e.target.value })} />
      </label>
      <label>
        Terms (days)
        <input inputMode="numeric" pattern="\d{1,3}" size={4} value={f.termsDays} onChange={(e) => setF({ ...f, termsDays: e.target.value })} />
      </label>
      <button type="submit">{onCancel ? 'Save' : 'Add contact'}</button>
      {onCancel && (
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      )}
    </form>
  );
}

export function Contacts({ orgId }: { orgId: string }) {
  const can = useCan();
  const may = can('updateContact');
  const [role, setRole] = useState<'' | 'customer' | 'vendor'>('');
  const [editing, setEditing] = useState<string>();
  const [statementOf, setStatementOf] = useState<Contact>();
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const contacts = useLoad(() => desk.listContacts({ orgId, role: role || undefined, archived: true }), [orgId, role]);
  const fail = (err: unknown) => (setNotice({ kind: 'error', text: messageOf(err) }), false);
  const done = (text: string) => (setNotice({ kind: 'ok', text }), contacts.reload(), true);
  const toggle = (c: Contact) =>
    void (c.archived ? desk.restoreContact({ orgId, contact: c.id }) : desk.archiveContact({ orgId, contact: c.id })).then(() => contacts.reload(), fail);
  const add = (f: Form) => desk.addContact({ orgId, ...inputOf(f) }).then((c) => done(`Added ${c.name}.`), fail);
  const edit = (c: Contact) => (f: Form) => desk.updateContact({ orgId, contact: c.id, ...inputOf(f) }).then((now) => (setEditing(undefined), done(`Saved ${now.name}.`)), fail);
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
      {statementOf && (
        <StatementOfAccount orgId={orgId} contact={statementOf} say={(text) => setNotice({ kind: 'ok', text })} fail={fail} onClose={() => setStatementOf(undefined)} />
      )}
      {may && <ContactForm label="New contact" start={EMPTY} submit={add} />}
      {can('importContacts') && <MovingImport orgId={orgId} what="contacts" onDone={contacts.reload} />}
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
                  <th>Address</th>
                  <th>VAT number</th>
                  <th className="num">Terms</th>
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {cs.map((c) =>
                  editing === c.id ? (
                    <tr key={c.id}>
                      <td colSpan={7}>
                        <ContactForm label={`Edit ${c.name}`} start={formOf(c)} submit={edit(c)} onCancel={() => setEditing(undefined)} />
                      </td>
                    </tr>
                  ) : (
                    <tr key={c.id} className={c.archived ? 'muted' : undefined}>
                      <td>{c.name}</td>
                      <td>{[c.customer && 'customer', c.vendor && 'vendor'].filter(Boolean).join(', ')}</td>
                      <td>{c.email ?? ''}</td>
                      <td>{[c.address?.replace(/\s*\n\s*/g, ', '), c.country && countryName(c.country)].filter(Boolean).join(', ')}</td>
                      <td>{c.taxNumber ?? ''}</td>
                      <td className="num">{c.termsDays === null ? '' : `${c.termsDays} days`}</td>
                      <td className="actions">
                        {c.customer && (
                          <button onClick={() => setStatementOf(c)} aria-label={`Statement of ${c.name}`}>
                            Statement
                          </button>
                        )}
                        {may && (
                          <>
                            <button onClick={() => setEditing(c.id)} aria-label={`Edit ${c.name}`}>
                              Edit
                            </button>
                            <button onClick={() => toggle(c)} aria-label={`${c.archived ? 'Restore' : 'Archive'} ${c.name}`}>
                              {c.archived ? 'Restore' : 'Archive'}
                            </button>
                          </>
                        )}
                      </td>
                    </tr>
                  ),
                )}
              </tbody>
            </table>
          </TableFrame>
        )}
      </Show>
    </section>
  );
}
