// The domain without the storage: every function takes an open `Ledger`. What
// the agent API's registry and the command line's agent side may load without
// loading the SQLite driver (db.ts and backup.ts open files; index.ts adds them).
export * from './accounts';
export * from './audit';
export * from './chart';
export * from './hand';
export * from './reconcile';
export * from './register';
export * from './reports';
export * from './totals';
export * from './export-book';
export * from './reversal';
export * from './categories';
export * from './connectors';
export * from './dashboard';
export * from './errors';
export * from './money';
export * from './notes';
export * from './ontology';
export * from './organizations';
export * from './proposals';
export * from './receipts';
export * from './review';
export * from './rules';
export * from './rule-runs';
export * from './tokens';
export * from './text';
export * from './transaction-detail';
export * from './transactions';
export * from './demo';
export * from './imports';
export * from './import-batches';
export * from './import-mappings';
export { MATCH_DAYS } from './dedupe';
