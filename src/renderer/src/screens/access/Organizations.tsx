// Organizations: switch between the books you keep, start new ones, rename
// any of them or change how it writes amounts (and its currency while its
// books hold no money), set the current one's fiscal
// year and closing date (ClosingPanel.tsx) and what its invoices print
// (OrganizationDetails.tsx), and remove one made by mistake
// (only while it is empty: its audit entries stay).
import { useState, type FormEvent } from 'react';
import type { DeskResult } from '../../../../main/desk/operations';
import { writeAmount, type DecimalMark } from '../../../../shared/amounts';
import { Notice, TableFrame, messageOf } from '../../components';
import { desk } from '../../desk';
import { formatDateTime } from '../../format';
import { useCan } from '../../can';
import { SETS } from '../tax/TaxCodes';
import { ClosingPanel } from '../reports/ClosingPanel';
import { OrganizationDetails } from './OrganizationDetails';

type Org = DeskResult<'listOrganizations'>[number];
/** The browser's own way of writing amounts: the default for a new organization. */
const localMark = (): DecimalMark => (new Intl.NumberFormat().formatToParts(1.5).find((p) => p.type === 'decimal')?.value === ',' ? ',' : '.');

function MarkSelect({
  value,
  currency,
  onChange,
  label = 'Amounts written as',
  ariaLabel,
  disabled,
}: {
  value: DecimalMark;
  currency: string;
  onChange: (m: DecimalMark) => void;
  label?: string;
  ariaLabel?: string;
  disabled?: boolean;
}) {
  return (
    <label>
      {label}
      <select aria-label={ariaLabel} disabled={disabled} value={value} onChange={(e) => onChange(e.target.value as DecimalMark)}>
        <option value=".">{writeAmount(123456, /^[A-Z]{3}$/.test(currency) ? currency : 'USD', '.')}</option>
        <option value=",">{writeAmount(123456, /^[A-Z]{3}$/.test(currency) ? currency : 'USD', ',')}</option>
      </select>
    </label>
  );
}

/** The currency, changed in place while the books hold no money; plain text once they do. */
function CurrencyCell({ o, act }: { o: Org; act: (what: () => Promise<unknown>, done: string) => void }) {
  const [code, setCode] = useState(o.currency);
  if (!o.canChangeCurrency) return <span title="Fixed: its books hold money in it">{o.currency}</span>;
  return (
    <form
      className="inline-form"
      aria-label={`Change the currency of ${o.name}`}
      onSubmit={(e) => (e.preventDefault(), act(() => desk.updateOrganization({ organization: o.id, currency: code }), `${o.name} now keeps its books in ${code}.`))}
    >
      <input aria-label={`Currency of ${o.name}`} required pattern="[A-Za-z]{3}" maxLength={3} size={4} value={code} onChange={(e) => setCode(e.target.value.toUpperCase())} />
      {code !== o.currency && <button type="submit">Change</button>}
    </form>
  );
}

function Row({ o, current, onSwitch, act }: { o: Org; current: string; onSwitch: (id: string) => void; act: (what: () => Promise<unknown>, done: string) => void }) {
  // Each organization's settings are its owners' (the role there, not here).
  const owner = useCan()('updateOrganization', o.role);
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(o.name);
  return (
    <tr>
      <td>
        {renaming ? (
          <form
            className="inline-form"
            aria-label={`Rename ${o.name}`}
            onSubmit={(e) => (e.preventDefault(), setRenaming(false), act(() => desk.renameOrganization({ organization: o.id, name }), `Renamed to ${name}.`))}
          >
            <input autoFocus aria-label="New name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
            <button type="submit">Save</button>
            <button type="button" onClick={() => (setRenaming(false), setName(o.name))}>
              Cancel
            </button>
          </form>
        ) : (
          o.name
        )}
      </td>
      <td>
        <code>{o.slug}</code>
      </td>
      <td>{owner ? <CurrencyCell o={o} act={act} /> : o.currency}</td>
      <td>
        <MarkSelect
          disabled={!owner}
          label=""
          ariaLabel={`How ${o.name} writes amounts`}
          value={o.decimalMark}
          currency={o.currency}
          onChange={(decimalMark) =>
            act(() => desk.updateOrganization({ organization: o.id, decimalMark }), `${o.name} now writes amounts as ${writeAmount(123456, o.currency, decimalMark)}.`)
          }
        />
      </td>
      <td className="nowrap">{formatDateTime(o.createdAt)}</td>
      <td className="actions">
        {o.id === current ? <strong>current</strong> : <button onClick={() => onSwitch(o.id)}>Switch to {o.name}</button>}
        {!renaming && owner && <button onClick={() => setRenaming(true)}>Rename</button>}
        {!o.hasBooks && o.id !== current && owner && (
          <button
            className="reject"
            onClick={() =>
              window.confirm(`Remove ${o.name}? It holds no books; its log entries stay.`) && act(() => desk.removeOrganization({ organization: o.id }), `Removed ${o.name}.`)
            }
          >
            Remove
          </button>
        )}
      </td>
    </tr>
  );
}

export function Organizations({
  orgs,
  current,
  onSwitch,
  onCreated,
  onChanged,
}: {
  orgs: Org[];
  current: string;
  onSwitch: (id: string) => void;
  onCreated: (org: Org) => void;
  onChanged: () => void;
}) {
  const can = useCan();
  const here = orgs.find((o) => o.id === current);
  const [form, setForm] = useState<NewForm>({ slug: '', name: '', currency: 'USD', decimalMark: localMark(), taxSet: '' });
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const act = (what: () => Promise<unknown>, done: string) =>
    void what().then(
      () => (setNotice({ kind: 'ok', text: done }), onChanged()),
      (err: unknown) => setNotice({ kind: 'error', text: messageOf(err) }),
    );
  async function create(e: FormEvent) {
    e.preventDefault();
    setNotice(undefined);
    try {
      onCreated(await desk.createOrganization({ ...form, currency: form.currency || undefined, taxSet: form.taxSet || undefined }));
      setForm({ slug: '', name: '', currency: 'USD', decimalMark: localMark(), taxSet: '' });
    } catch (err) {
      setNotice({ kind: 'error', text: messageOf(err) });
    }
  }
  return (
    <section aria-labelledby="orgs-title">
      <div className="screen-head">
        <h2 id="orgs-title">Organizations</h2>
      </div>
      <p className="hint">
        Each organization has its own books, chart of accounts and tokens; an agent token sees only its own. Amounts are typed and shown the way each one writes them. Its currency
        changes only while its books hold no money (no rows, invoices or bills, exchange rates or opening balances yet); its accounts in the old currency move with it.
      </p>
      {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
      <TableFrame>
        <table className="grid">
          <thead>
            <tr>
              <th>Name</th>
              <th>Slug</th>
              <th>Currency</th>
              <th>Amounts</th>
              <th>Created</th>
              <th>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {orgs.map((o) => (
              <Row key={o.id} o={o} current={current} onSwitch={onSwitch} act={act} />
            ))}
          </tbody>
        </table>
      </TableFrame>
      {here && <ClosingPanel key={current} org={here} act={act} />}
      {here && can('updateOrganization', here.role) && <OrganizationDetails key={`details-${current}`} org={here} act={act} />}
      {orgs.some((o) => can('createOrganization', o.role)) && <NewOrganization form={form} setForm={setForm} create={create} />}
    </section>
  );
}

type NewForm = { slug: string; name: string; currency: string; decimalMark: DecimalMark; taxSet: string };

/** A new organization: for whom owns one already (its first owner is who makes it). */
function NewOrganization({ form, setForm, create }: { form: NewForm; setForm: (f: NewForm) => void; create: (e: FormEvent) => void }) {
  return (
    <>
      <h3>New organization</h3>
      <form className="inline-form" onSubmit={create} aria-label="New organization">
        <label>
          Name
          <input required maxLength={200} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        </label>
        <label>
          Slug
          <input
            required
            pattern="[a-z0-9]([a-z0-9\-]*[a-z0-9])?"
            title="lower-case letters, digits and inner dashes"
            value={form.slug}
            onChange={(e) => setForm({ ...form, slug: e.target.value.toLowerCase() })}
            placeholder="acme"
          />
        </label>
        <label>
          Currency
          <input maxLength={3} size={4} value={form.currency} onChange={(e) => setForm({ ...form, currency: e.target.value.toUpperCase() })} />
        </label>
        <MarkSelect value={form.decimalMark} currency={form.currency} onChange={(decimalMark) => setForm({ ...form, decimalMark })} />
        <label title="UK VAT starts it with the UK small-business chart, each category with its VAT code">
          Sales tax
          <select value={form.taxSet} onChange={(e) => setForm({ ...form, taxSet: e.target.value })}>
            <option value="">None yet</option>
            {SETS.map(([id, name]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Create organization</button>
      </form>
    </>
  );
}
