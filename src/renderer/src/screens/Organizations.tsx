// Organizations: switch between the books you keep, or start new ones.
import { useState, type FormEvent } from 'react';
import type { DeskResult } from '../../../main/desk/operations';
import { Notice, messageOf } from '../components';
import { desk } from '../desk';
import { formatDateTime } from '../format';

type Org = DeskResult<'listOrganizations'>[number];

export function Organizations({ orgs, current, onSwitch, onCreated }: { orgs: Org[]; current: string; onSwitch: (id: string) => void; onCreated: (org: Org) => void }) {
  const [form, setForm] = useState({ slug: '', name: '', currency: 'USD' });
  const [error, setError] = useState<string>();
  async function create(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    try {
      onCreated(await desk.createOrganization({ ...form, currency: form.currency || undefined }));
      setForm({ slug: '', name: '', currency: 'USD' });
    } catch (err) {
      setError(messageOf(err));
    }
  }
  return (
    <section aria-labelledby="orgs-title">
      <div className="screen-head">
        <h2 id="orgs-title">Organizations</h2>
      </div>
      <p className="hint">Each organization has its own books, chart of accounts and tokens; an agent token sees only its own.</p>
      <table className="grid">
        <thead>
          <tr>
            <th>Name</th>
            <th>Slug</th>
            <th>Currency</th>
            <th>Created</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {orgs.map((o) => (
            <tr key={o.id}>
              <td>{o.name}</td>
              <td>
                <code>{o.slug}</code>
              </td>
              <td>{o.currency}</td>
              <td>{formatDateTime(o.createdAt)}</td>
              <td>{o.id === current ? <strong>current</strong> : <button onClick={() => onSwitch(o.id)}>Switch to {o.name}</button>}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>New organization</h3>
      <form className="inline-form" onSubmit={create}>
        <label>
          Name
          <input required maxLength={200} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        </label>
        <label>
          Slug
          <input required pattern="[a-z0-9][a-z0-9-]*" value={form.slug} onChange={(e) => setForm({ ...form, slug: e.target.value.toLowerCase() })} placeholder="acme" />
        </label>
        <label>
          Currency
          <input maxLength={3} value={form.currency} onChange={(e) => setForm({ ...form, currency: e.target.value.toUpperCase() })} />
        </label>
        <button type="submit">Create organization</button>
      </form>
      {error && <Notice kind="error">{error}</Notice>}
    </section>
  );
}
