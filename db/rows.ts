// The tables' rows as SQL hands them to the ledger: the schema's own types
// (drizzle's $inferSelect), with its column names (snake_case). Types only:
// nothing here loads at run time. The ledger maps rows to the camelCase
// objects it answers with in one place per table (toTransaction, toAccount...).
import type * as schema from './schema';

type Snake<S extends string> = S extends `${infer Head}${infer Tail}` ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${Snake<Tail>}` : S;
type RowOf<T extends { $inferSelect: object }> = { [K in keyof T['$inferSelect'] as Snake<K & string>]: T['$inferSelect'][K] };

export type OrganizationRecord = RowOf<typeof schema.organizations>;
export type CategoryRecord = RowOf<typeof schema.categories>;
export type TransactionRecord = RowOf<typeof schema.transactions>;
export type AccountRecord = RowOf<typeof schema.accounts>;
export type ProposalRecord = RowOf<typeof schema.proposals>;
export type ReconciliationRecord = RowOf<typeof schema.reconciliations>;
export type ImportBatchRecord = RowOf<typeof schema.importBatches>;
export type RuleRecord = RowOf<typeof schema.rules>;
export type ConnectorRecord = RowOf<typeof schema.connectors>;
export type ConnectorAccountRecord = RowOf<typeof schema.connectorAccounts>;
export type FeedHeldRecord = RowOf<typeof schema.feedHeld>;
export type ConnectorSignInRecord = RowOf<typeof schema.connectorSignIns>;

/** Some of a table's columns, named so that a typo does not compile: their list for SQL, with an alias when a query joins. */
export function columns<R>(names: readonly (keyof R & string)[], alias?: string): string {
  return names.map((n) => (alias ? `${alias}.${n}` : n)).join(', ');
}
