// The chart of accounts: add a category, rename it (its transactions follow),
// edit synonyms, archive (kept for history, no longer offered) and restore.
// A change that moves what agents' free text means (a name that is another
// category's synonym, a shared synonym) says so in its notice.
import { useState, type FormEvent } from 'react';
import type { ChartChange, DeskCategory } from '../../../../main/ledger/chart/edit';
import { Notice, Show, TableFrame, messageOf } from '../../components';
import { CATEGORY_TYPES } from '../../../../../db/values';
import { desk } from '../../desk';
import { useLoad } from '../../hooks';
import { useCan } from '../../can';
import { MovingImport } from './MovingImport';

const TYPES = CATEGORY_TYPES;
const EMPTY = { code: '', name: '', type: 'expense' as (typeof TYPES)[number], parentCode: '', synonyms: '' };
const words = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** Runs a change and says what it did: a line, or one made of its result. */
type Act = <T>(what: () => Promise<T>, done: string | ((result: T) => string)) => Promise<void>;

/** The notice after a change to a category's words, with its warnings. */
const saying = (lead: string) => (c: ChartChange) => [lead, ...c.warnings].join(' ');

function Row({ c, orgId, act }: { c: DeskCategory; orgId: string; act: Act }) {
  const may = useCan()('renameCategory');
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(c.name);
  const [synonyms, setSynonyms] = useState(c.synonyms.join(', '));
  async function save(e: FormEvent) {
    e.preventDefault();
    setEditing(false);
    if (name !== c.name) await act(() => desk.renameCategory({ orgId, code: c.code, name }), saying(`Renamed ${c.code} to ${name}, on its transactions too.`));
    if (synonyms !== c.synonyms.join(', ')) await act(() => desk.setCategorySynonyms({ orgId, code: c.code, synonyms: words(synonyms) }), saying(`Synonyms of ${c.code} saved.`));
  }
  return (
    <tr className={c.inUse ? undefined : 'closed'}>
      <td>
        <code>{c.code}</code>
      </td>
      {editing ? (
        <td colSpan={4}>
          <form className="inline-form" onSubmit={save} aria-label={`Edit ${c.code}`}>
            <label>
              Name
              <input autoFocus required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
            </label>
            <label>
              Synonyms (comma-separated)
              <input value={synonyms} onChange={(e) => setSynonyms(e.target.value)} />
            </label>
            <button type="submit">Save</button>
            <button type="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </form>
        </td>
      ) : (
        <>
          <td>
            {c.parentCode && <span className="muted">{'  ↳ '}</span>}
            {c.name}
            {!c.inUse && <span className="status closed-badge">archived</span>}
          </td>
          <td>
            {c.type === 'expense' ? (
              <select
                aria-label={`Where ${c.code} is reported`}
                value={c.costOfSales ? 'cost_of_sales' : 'expenses'}
                disabled={c.costOfSalesFrom !== null}
                title={c.costOfSalesFrom ? `Reported as cost of sales with ${c.costOfSalesFrom}, the category it is under` : undefined}
                onChange={(e) =>
                  void act(
                    () => desk.setCategorySection({ orgId, code: c.code, section: e.target.value as 'cost_of_sales' | 'expenses' }),
                    `${c.code} ${c.name} is now reported ${e.target.value === 'cost_of_sales' ? 'as cost of sales' : 'among the expenses'}.`,
                  )
                }
              >
                <option value="expenses">expense</option>
                <option value="cost_of_sales">expense: cost of sales</option>
              </select>
            ) : (
              c.type
            )}
          </td>
          <td>{c.parentCode ?? ''}</td>
          <td className="wrap">{c.synonyms.join(', ')}</td>
        </>
      )}
      <td className="actions">
        {may && !editing && <button onClick={() => setEditing(true)}>Edit</button>}
        {!may ? null : c.isDefault ? (
          <span className="muted small" title="Agents are told about the default codes: rename it if you like">
            default
          </span>
        ) : c.inUse ? (
          <button onClick={() => void act(() => desk.archiveCategory({ orgId, code: c.code }), `Archived ${c.code} ${c.name}.`)}>Archive</button>
        ) : (
          <button onClick={() => void act(() => desk.restoreCategory({ orgId, code: c.code }), `${c.code} ${c.name} is back in use.`)}>Restore</button>
        )}
      </td>
    </tr>
  );
}

export function Chart({ orgId }: { orgId: string }) {
  const can = useCan();
  const may = can('addCategory');
  const loaded = useLoad(() => desk.listChart({ orgId }), [orgId]);
  const [form, setForm] = useState(EMPTY);
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string }>();
  const act: Act = async (what, done) => {
    try {
      const result = await what();
      setNotice({ kind: 'ok', text: typeof done === 'string' ? done : done(result) });
    } catch (error) {
      setNotice({ kind: 'error', text: messageOf(error) });
    }
    loaded.reload();
  };
  async function add(e: FormEvent) {
    e.preventDefault();
    await act(
      () => desk.addCategory({ orgId, code: form.code, name: form.name, type: form.type, parent: form.parentCode || undefined, synonyms: words(form.synonyms) }),
      saying(`Added ${form.code} ${form.name}.`),
    );
    setForm(EMPTY);
  }
  return (
    <section aria-labelledby="chart-title">
      <div className="screen-head">
        <h2 id="chart-title">Chart of accounts</h2>
      </div>
      <p className="hint">
        Transactions store a category's name: renaming one renames it on its transactions. The default codes (what agents are told) stay; any other can be archived.
      </p>
      {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
      {can('importChart') && <MovingImport orgId={orgId} what="chart" onDone={loaded.reload} />}
      <Show loaded={loaded} what="the chart">
        {(categories) => (
          <TableFrame>
            <table className="grid chart-table">
              <thead>
                <tr>
                  <th>Code</th>
                  <th>Name</th>
                  <th>Type</th>
                  <th>Parent</th>
                  <th>Synonyms</th>
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {categories
                  .filter((c) => c.code)
                  .map((c) => (
                    <Row key={c.code} c={c} orgId={orgId} act={act} />
                  ))}
              </tbody>
            </table>
          </TableFrame>
        )}
      </Show>
      {may && <NewCategory form={form} setForm={setForm} add={add} />}
    </section>
  );
}

function NewCategory({ form, setForm, add }: { form: typeof EMPTY; setForm: (f: typeof EMPTY) => void; add: (e: FormEvent) => void }) {
  return (
    <>
      <h3>New category</h3>
      <form className="inline-form" onSubmit={add} aria-label="New category">
        <label>
          Code
          <input required size={8} maxLength={20} value={form.code} onChange={(e) => setForm({ ...form, code: e.target.value })} placeholder="5400" />
        </label>
        <label>
          Name
          <input required maxLength={200} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} placeholder="Marketing" />
        </label>
        <label>
          Type
          <select value={form.type} onChange={(e) => setForm({ ...form, type: e.target.value as (typeof TYPES)[number] })}>
            {TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        <label>
          Parent code
          <input size={8} value={form.parentCode} onChange={(e) => setForm({ ...form, parentCode: e.target.value })} placeholder="5000" />
        </label>
        <label>
          Synonyms (comma-separated)
          <input value={form.synonyms} onChange={(e) => setForm({ ...form, synonyms: e.target.value })} placeholder="Ads, Advertising" />
        </label>
        <button type="submit">Add category</button>
      </form>
    </>
  );
}
