// Rules: the bookkeeper's own categorization rules, in the order they are
// tried (the first that matches a row wins), with how many rows each took.
// Edit, reorder, switch off, delete (each audited), and run them now over
// every uncategorized row. They also run on every import.
import { useState } from 'react';
import type { Rule } from '../../../../main/ledger/rules/rules';
import type { TaxCode } from '../../../../main/ledger/tax/codes';
import { Empty, Notice, Show, TableFrame, messageOf } from '../../components';
import { desk } from '../../desk';
import { formatDateTime } from '../../format';
import { useLoad } from '../../hooks';
import { useCan } from '../../can';
import { RuleForm, toFields, type RuleFields } from './RuleForm';

const NEW_RULE: RuleFields = {
  matchKind: 'contains',
  matchText: '',
  accountId: null,
  sign: null,
  categoryCode: '5000',
  mode: 'suggest',
  enabled: true,
  split: null,
  taxCode: null,
};

const count = (n: number, what: string) => `${n.toLocaleString('en')} ${what}${n === 1 ? '' : 's'}`;

export function Rules({ orgId }: { orgId: string }) {
  const may = useCan()('createRule');
  const rules = useLoad(() => desk.listRules({ orgId }), [orgId]);
  const accounts = useLoad(() => desk.listAccounts({ orgId }), [orgId]);
  const chart = useLoad(() => desk.listChart({ orgId }), [orgId]);
  const taxCodes = useLoad(() => desk.listTaxCodes({ orgId }), [orgId]);
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string }>();

  async function act<R>(what: () => Promise<R>, done: (result: R) => string) {
    setBusy(true);
    try {
      const result = await what();
      setNotice({ kind: 'ok', text: done(result) });
      setEditing(null);
    } catch (error) {
      setNotice({ kind: 'error', text: messageOf(error) });
    } finally {
      setBusy(false);
      rules.reload();
    }
  }
  const ran = (run: { suggested: number; applied: number; alreadyDecided: number } | null) =>
    run
      ? ` It suggested a category for ${count(run.suggested, 'row')} (in Approvals) and categorized ${count(run.applied, 'row')}${run.alreadyDecided ? `; ${count(run.alreadyDecided, 'row')} already had the same suggestion pending or rejected` : ''}.`
      : '';
  const form = <R,>(initial: RuleFields, submit: string, save: (f: RuleFields) => Promise<R>, done: (r: R) => string) => (
    <RuleForm
      initial={initial}
      accounts={accounts.data ?? []}
      categories={chart.data ?? []}
      taxCodes={taxCodes.data ?? []}
      submit={submit}
      busy={busy}
      onSubmit={(f) => void act(() => save(f), done)}
      onCancel={() => setEditing(null)}
    />
  );

  return (
    <section aria-labelledby="rules-title">
      <div className="screen-head">
        <h2 id="rules-title">Rules</h2>
        {may && (
          <button onClick={() => setEditing('new')} disabled={editing === 'new'}>
            New rule
          </button>
        )}
        {may && (
          <button
            disabled={busy || !rules.data?.length}
            onClick={() =>
              void act(
                () => desk.runRules({ orgId }),
                (r) => `Ran the rules over ${count(r.rows, 'uncategorized row')}.${ran(r)}`,
              )
            }
          >
            Run rules now
          </button>
        )}
      </div>
      <p className="hint">
        Each uncategorized row gets the first rule that matches it, top to bottom. Rules run on every import and when you press “Run rules now”; a suggesting rule puts a proposal
        in Approvals, an applying rule categorizes at once. Make one from a proposal with “Approve and remember”.
      </p>
      {notice && (
        <Notice kind={notice.kind} onClose={() => setNotice(undefined)}>
          {notice.text}
        </Notice>
      )}
      {editing === 'new' &&
        form(
          NEW_RULE,
          'Save rule',
          (rule) => desk.createRule({ orgId, rule }),
          (r) => `Rule ${r.rule.position} saved.${ran(r.run)}`,
        )}
      <Show
        loaded={rules}
        what="rules"
        empty={(d) => (d.length === 0 ? <Empty title="No rules yet.">Approve a categorization with “Approve and remember”, or make one here.</Empty> : undefined)}
      >
        {(data) => (
          <TableFrame>
            <table className="grid">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">When the description</th>
                  <th scope="col">Where</th>
                  <th scope="col">Category</th>
                  <th scope="col">Tax</th>
                  <th scope="col">Then</th>
                  <th scope="col">Matched</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {data.map((r, i) =>
                  editing === r.id ? (
                    <tr key={r.id}>
                      <td colSpan={8}>
                        {form(
                          toFields(r),
                          'Save changes',
                          (rule) => desk.updateRule({ orgId, id: r.id, rule }),
                          () => `Rule ${r.position} changed.`,
                        )}
                      </td>
                    </tr>
                  ) : (
                    <RuleRow
                      key={r.id}
                      r={r}
                      taxCodes={taxCodes.data ?? []}
                      first={i === 0}
                      last={i === data.length - 1}
                      busy={busy}
                      onEdit={() => setEditing(r.id)}
                      act={act}
                      orgId={orgId}
                    />
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

/** The tax code a rule writes, named as the Tax screen names it; without one, its categories' own defaults. */
function RuleTax({ code, taxCodes }: { code: string | null; taxCodes: TaxCode[] }) {
  if (!code) return <span className="muted">the category&apos;s</span>;
  const found = taxCodes.find((c) => c.code === code);
  return (
    <>
      <code>{code}</code> {found?.name}
      {found?.archived && <span className="muted"> (archived)</span>}
    </>
  );
}

function RuleRow(props: {
  r: Rule;
  taxCodes: TaxCode[];
  orgId: string;
  first: boolean;
  last: boolean;
  busy: boolean;
  onEdit: () => void;
  act: <R>(what: () => Promise<R>, done: (result: R) => string) => Promise<void>;
}) {
  const { r, orgId, act } = props;
  const may = useCan()('updateRule');
  const move = (to: number) =>
    act(
      () => desk.moveRule({ orgId, id: r.id, position: to }),
      () => `Rule moved to ${to}.`,
    );
  const toggle = () =>
    act(
      () => desk.updateRule({ orgId, id: r.id, rule: { ...toFields(r), enabled: !r.enabled } }),
      () => `Rule ${r.position} switched ${r.enabled ? 'off' : 'on'}.`,
    );
  const remove = () => {
    if (window.confirm(`Delete rule ${r.position}? Its pending suggestions stay in Approvals.`))
      void act(
        () => desk.deleteRule({ orgId, id: r.id }),
        () => `Rule ${r.position} deleted.`,
      );
  };
  return (
    <tr className={r.enabled ? undefined : 'closed'}>
      <td>{r.position}</td>
      <td>
        {r.matchKind === 'shape' ? 'is shaped like' : 'contains'} <code>{r.matchText}</code>
      </td>
      <td>
        {r.accountName ?? 'any account'}, {r.sign === 'inflow' ? 'money in' : r.sign === 'outflow' ? 'money out' : 'in or out'}
      </td>
      <td>
        {r.split ? (
          <span aria-label="Split by shares">{r.split.map((x) => `${x.percent}% ${x.categoryCode}`).join(' / ')}</span>
        ) : (
          <>
            <code>{r.categoryCode}</code> {r.category ?? <strong>not in the chart</strong>}
          </>
        )}
      </td>
      <td>
        <RuleTax code={r.taxCode} taxCodes={props.taxCodes} />
      </td>
      <td className="nowrap">
        {r.mode === 'apply' ? 'categorize' : 'suggest'}
        {!r.enabled && <span className="muted"> (off)</span>}
      </td>
      <td className="nowrap">
        {r.matchedCount.toLocaleString('en')}
        {r.lastRunAt && <span className="muted"> · {formatDateTime(r.lastRunAt)}</span>}
      </td>
      <td className="actions">
        {may && (
          <>
            <button aria-label={`Move rule ${r.position} up`} disabled={props.first || props.busy} onClick={() => void move(r.position - 1)}>
              ↑
            </button>
            <button aria-label={`Move rule ${r.position} down`} disabled={props.last || props.busy} onClick={() => void move(r.position + 1)}>
              ↓
            </button>
            <button onClick={props.onEdit}>Edit</button>
            <button onClick={() => void toggle()}>{r.enabled ? 'Switch off' : 'Switch on'}</button>
            <button className="reject" onClick={remove}>
              Delete
            </button>
          </>
        )}
      </td>
    </tr>
  );
}
