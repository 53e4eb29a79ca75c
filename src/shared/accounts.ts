// The kinds of money account as a person reads them: the screens' labels and
// the names of accounts an import makes. Plain data (bundled into the screens).
export const ACCOUNT_TYPE_LABELS = {
  checking: 'Checking',
  savings: 'Savings',
  credit_card: 'Credit card',
  cash: 'Cash',
  payment_processor: 'Payment processor',
  other_asset: 'Other asset',
  other_liability: 'Other liability',
} as const;
