// Entering a transaction by hand, and correcting one entered by hand.
import { useState, type FormEvent } from 'react';
import type { Account } from '../../../main/ledger/accounts';
import type { Category } from '../../../main/ledger/categories';
import type { RegisterRow } from '../../../main/ledger/register';
import { AccountOptions, CategoryOptions, Notice, messageOf } from '../components';
import { desk } from '../desk';

export function TransactionForm({
  orgId,
  accounts,
  categories,
  editing,
  defaultAccount,
  onDone,
}: {
  orgId: string;
  accounts: Account[];
  categories: Category[];
  editing?: RegisterRow;
  defaultAccount?: string;
  onDone: (message: string | null) => void;
}) {
  const open = accounts.filter((a) => !a.closedAt);
  const [form, setForm] = useState({
    account: editing?.accountId ?? defaultAccount ?? open[0]?.id ?? '',
    date: editing?.date ?? new Date().toISOString().slice(0, 10),
    amount: editing ? String(editing.amount) : '',
    description: editing?.description ?? '',
    categoryCode: '',
  });
  const [error, setError] = useState<string>();
  const set = (key: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    const amount = Number(form.amount.replace(',', '.'));
    if (form.amount.trim() === '' || !Number.isFinite(amount)) return setError('The amount must be a number, negative for money out (-12.50).');
    try {
      if (editing) {
        await desk.editTransaction({ orgId, id: editing.id, date: form.date, amount, description: form.description });
        onDone(`Saved ${form.description}.`);
      } else {
        await desk.addTransaction({ orgId, account: form.account, date: form.date, amount, description: form.description, categoryCode: form.categoryCode || undefined });
        onDone(`Added ${form.description}.`);
      }
    } catch (err) {
      setError(messageOf(err));
    }
  }
  return (
    <form className="inline-form hand" onSubmit={submit} aria-label={editing ? 'Edit transaction' : 'New transaction'}>
      {!editing && (
        <label>
          Account
          <select value={form.account} onChange={(e) => set('account')(e.target.value)}>
            <AccountOptions accounts={open} />
          </select>
        </label>
      )}
      <label>
        Date (YYYY-MM-DD)
        <input required pattern="\d{4}-\d{2}-\d{2}" value={form.date} onChange={(e) => set('date')(e.target.value)} />
      </label>
      <label>
        Description
        <input required maxLength={500} value={form.description} onChange={(e) => set('description')(e.target.value)} />
      </label>
      <label>
        Amount (− out, + in)
        <input required inputMode="decimal" value={form.amount} onChange={(e) => set('amount')(e.target.value)} placeholder="-12.50" />
      </label>
      {!editing && (
        <label>
          Category
          <select value={form.categoryCode} onChange={(e) => set('categoryCode')(e.target.value)}>
            <option value="">(uncategorized)</option>
            <CategoryOptions categories={categories} />
          </select>
        </label>
      )}
      <button type="submit">{editing ? 'Save' : 'Add transaction'}</button>
      <button type="button" onClick={() => onDone(null)}>
        Cancel
      </button>
      {error && <Notice kind="error">{error}</Notice>}
    </form>
  );
}
