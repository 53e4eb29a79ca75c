// Entering a transaction by hand, and correcting one entered by hand.
import { useState, type FormEvent } from 'react';
import type { Account } from '../../../../main/ledger/accounts/accounts';
import type { Category } from '../../../../main/ledger/chart/categories';
import type { RegisterRow } from '../../../../main/ledger/transactions/register';
import { AccountOptions, AmountField, CategoryOptions, Notice, messageOf, useTypedAmount } from '../../components';
import { amountText } from '../../../../shared/amounts';
import { desk } from '../../desk';
import { withCorrection } from '../../correction';
import { useOrg } from '../../org';

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
  const { decimalMark, currency: orgCurrency } = useOrg();
  const [form, setForm] = useState({
    account: editing?.accountId ?? defaultAccount ?? open[0]?.id ?? '',
    date: editing?.date ?? new Date().toISOString().slice(0, 10),
    amount: editing ? amountText(editing.amount, editing.currency, decimalMark) : '',
    description: editing?.description ?? '',
    categoryCode: '',
  });
  const [error, setError] = useState<string>();
  const set = (key: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  // The accounts may arrive (or change with the organization) after the form opened: an account not among them is none.
  const account = open.some((a) => a.id === form.account) ? form.account : ((open.find((a) => a.id === defaultAccount) ?? open[0])?.id ?? '');
  const currency = editing?.currency ?? accounts.find((a) => a.id === account)?.currency ?? orgCurrency;
  const read = useTypedAmount(form.amount, currency);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    if (!read) return setError('Type the amount, negative for money out.');
    if (!read.ok) return setError(`The amount ${read.message}`);
    // Sent as typed: the ledger reads it with the same reader (and the organization's decimal mark).
    const amount = form.amount;
    try {
      if (editing) {
        await withCorrection((c) => desk.editTransaction({ orgId, id: editing.id, date: form.date, amount, description: form.description, ...c }));
        onDone(`Saved ${form.description}.`);
      } else {
        await desk.addTransaction({ orgId, account, date: form.date, amount, description: form.description, categoryCode: form.categoryCode || undefined });
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
          <select value={account} onChange={(e) => set('account')(e.target.value)}>
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
      <AmountField label="Amount (− out, + in)" required value={form.amount} onChange={set('amount')} currency={currency} />
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
