// The domain without the storage: every function takes an open `Ledger`. What
// the agent API's registry and the command line's agent side may load without
// loading the SQLite driver (core/db.ts and core/backup.ts open files; index.ts
// adds them). The demo books (src/main/demo.ts) are a fixture, not part of it.
export * from './core/errors';
export * from './core/money';
export * from './core/text';
export * from './access/audit';
export * from './access/organizations';
export * from './access/closing';
export * from './access/tokens';
export * from './chart/categories';
export * from './chart/edit';
export * from './chart/ontology';
export * from './accounts/accounts';
export * from './accounts/connectors';
export * from './accounts/reconcile';
export * from './transactions/transactions';
export * from './transactions/detail';
export * from './transactions/hand';
export * from './transactions/hand-split';
export { MAX_SPLIT_LINES, type SplitPart } from './transactions/split';
export * from './transactions/notes';
export * from './transactions/receipts';
export * from './transactions/register';
export * from './totals/sums';
export * from './proposals/proposals';
export * from './proposals/review';
export * from './proposals/reversal';
export * from './tax/codes';
export * from './tax/return';
export * from './tax/filing';
export * from './tax/periods';
export { TAX_CONTROL, taxInGross, taxOnNet } from './tax/lines';
export * from './transfers/transfers';
export * from './transfers/suggest';
export * from './rules/rules';
export * from './rules/runs';
export * from './imports/import';
export * from './imports/batches';
export * from './imports/mappings';
export { MATCH_DAYS } from './imports/dedupe';
export * from './reports/reports';
export * from './reports/profit-and-loss';
export * from './reports/dashboard';
export * from './reports/balance-sheet';
export * from './reports/general-ledger';
export { SUSPENSE_NAME, OPENING_NAME, type BookRef, type BookClass } from './reports/positions';
export * from './reports/export-book';
