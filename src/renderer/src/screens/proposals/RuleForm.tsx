// One rule's fields, for the Rules screen (new and edit) and for "Approve and
// remember" in Approvals: what a description must look like, where, which way
// the money goes, the category, the tax code, and whether to suggest or apply.
import { useState, type FormEvent } from 'react';
import type { Account } from '../../../../main/ledger/accounts/accounts';
import type { Category } from '../../../../main/ledger/chart/categories';
import type { RuleInput, RuleShare } from '../../../../main/ledger/rules/rules';
import type { TaxCode } from '../../../../main/ledger/tax/codes';
import { AccountOptions, CategoryOptions } from '../../components';

export type RuleFields = Required<Pick<RuleInput, 'matchKind' | 'matchText' | 'categoryCode' | 'mode' | 'enabled'>> & {
  accountId: string | null;
  sign: 'inflow' | 'outflow' | null;
  split: RuleShare[] | null;
  taxCode: string | null;
};

/** "70% 5100 / 30% 5000" as shares (null when empty); the ledger checks them (they add up to 100, codes of the chart). */
const sharesOfText = (text: string): RuleShare[] | null => {
  const shares = [...text.matchAll(/(\d+(?:[.,]\d{1,2})?)\s*%\s*([^\s/,;]+)/g)].map((m) => ({ percent: Number(m[1].replace(',', '.')), categoryCode: m[2] }));
  return shares.length ? shares : null;
};
const textOfShares = (shares: RuleShare[] | null) => shares?.map((s) => `${s.percent}% ${s.categoryCode}`).join(' / ') ?? '';

export const toFields = (r: RuleInput): RuleFields => ({
  matchKind: r.matchKind,
  matchText: r.matchText,
  accountId: r.accountId ?? null,
  sign: r.sign ?? null,
  categoryCode: r.categoryCode,
  mode: r.mode ?? 'suggest',
  enabled: r.enabled ?? true,
  split: r.split ?? null,
  taxCode: r.taxCode ?? null,
});

export function RuleForm(props: {
  initial: RuleFields;
  accounts: Account[];
  categories: Category[];
  /** The organization's tax codes, offered by name; without them the code is typed. */
  taxCodes?: TaxCode[];
  /** Texts found in the description (counterparty aliases), offered as one-click "contains" texts. */
  aliases?: string[];
  /** The description the rule was drafted from, shown for reference. */
  description?: string;
  submit: string;
  busy?: boolean;
  onSubmit: (fields: RuleFields) => void;
  onCancel?: () => void;
}) {
  const [f, setF] = useState(props.initial);
  const [splitText, setSplitText] = useState(textOfShares(props.initial.split));
  const set =
    <K extends keyof RuleFields>(key: K) =>
    (value: RuleFields[K]) =>
      setF((x) => ({ ...x, [key]: value }));
  function submit(e: FormEvent) {
    e.preventDefault();
    const split = sharesOfText(splitText);
    props.onSubmit({ ...f, split, categoryCode: split?.[0].categoryCode ?? f.categoryCode });
  }
  return (
    <form className="inline-form rule-form" onSubmit={submit} aria-label="Rule" onKeyDown={(e) => e.stopPropagation()}>
      {props.description && (
        <p className="hint">
          From: <code>{props.description}</code>
        </p>
      )}
      <label>
        When the description
        <select value={f.matchKind} onChange={(e) => set('matchKind')(e.target.value as RuleFields['matchKind'])}>
          <option value="shape">is shaped like (digits as #)</option>
          <option value="contains">contains</option>
        </select>
      </label>
      <label>
        Text
        <input required maxLength={200} value={f.matchText} onChange={(e) => set('matchText')(e.target.value)} />
      </label>
      {props.aliases && props.aliases.length > 0 && (
        <span className="aliases" aria-label="Counterparty names in the description">
          {props.aliases.map((alias) => (
            <button type="button" key={alias} onClick={() => setF((x) => ({ ...x, matchKind: 'contains', matchText: alias }))}>
              contains “{alias}”
            </button>
          ))}
        </span>
      )}
      <label>
        In account
        <select value={f.accountId ?? ''} onChange={(e) => set('accountId')(e.target.value || null)}>
          <option value="">any account</option>
          <AccountOptions accounts={props.accounts} />
        </select>
      </label>
      <label>
        Money
        <select value={f.sign ?? ''} onChange={(e) => set('sign')((e.target.value || null) as RuleFields['sign'])}>
          <option value="">in or out</option>
          <option value="outflow">out only</option>
          <option value="inflow">in only</option>
        </select>
      </label>
      <label>
        Category
        <select required value={f.categoryCode} onChange={(e) => set('categoryCode')(e.target.value)}>
          <CategoryOptions categories={props.categories} keep={f.categoryCode} />
        </select>
      </label>
      <label>
        Or split by shares
        <input value={splitText} onChange={(e) => setSplitText(e.target.value)} placeholder="70% 5100 / 30% 5000" maxLength={400} />
      </label>
      <label>
        Tax code
        {props.taxCodes?.length ? (
          <select value={f.taxCode ?? ''} onChange={(e) => set('taxCode')(e.target.value || null)}>
            <option value="">the category&apos;s</option>
            {props.taxCodes
              .filter((c) => !c.archived || c.code === f.taxCode)
              .map((c) => (
                <option key={c.code} value={c.code}>
                  {c.code} {c.name}
                </option>
              ))}
          </select>
        ) : (
          <input value={f.taxCode ?? ''} onChange={(e) => set('taxCode')(e.target.value.trim() || null)} placeholder="the category's" maxLength={20} size={6} />
        )}
      </label>
      <label>
        Then
        <select value={f.mode} onChange={(e) => set('mode')(e.target.value as RuleFields['mode'])}>
          <option value="suggest">suggest (I approve each)</option>
          <option value="apply">categorize at once</option>
        </select>
      </label>
      <label className="check">
        <input type="checkbox" checked={f.enabled} onChange={(e) => set('enabled')(e.target.checked)} /> On
      </label>
      <button type="submit" className="approve" disabled={props.busy}>
        {props.submit}
      </button>
      {props.onCancel && (
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      )}
    </form>
  );
}
