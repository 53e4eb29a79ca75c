// The kinds of money account: the ledger's values, what statement files say an
// account is, the screens' labels and the names of accounts an import makes.
// Plain data (bundled into the screens).
export const ACCOUNT_TYPES = ['checking', 'savings', 'credit_card', 'cash', 'payment_processor', 'other_asset', 'other_liability'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

/** Liabilities: a negative balance is money owed (and their statements print what is owed as a positive figure). */
export const LIABILITY_TYPES: readonly AccountType[] = ['credit_card', 'other_liability'];
export const isLiability = (type: AccountType): boolean => LIABILITY_TYPES.includes(type);

/** Upper-cased, without spaces: how a bank's account ids are compared across files. */
export const normalizeAccountId = (id: string | null | undefined): string | null => {
  const clean = id?.replace(/\s+/g, '').toUpperCase();
  return clean ? clean : null;
};

export const ACCOUNT_TYPE_LABELS = {
  checking: 'Checking',
  savings: 'Savings',
  credit_card: 'Credit card',
  cash: 'Cash',
  payment_processor: 'Payment processor',
  other_asset: 'Other asset',
  other_liability: 'Other liability',
} as const;
