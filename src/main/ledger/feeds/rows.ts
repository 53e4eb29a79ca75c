// A feed's rows in the ledger's terms (issue 52): the shape a provider states a
// row in, and its booked rows as a statement of one account, so that they take
// the one import path (imports/) a file's rows take.
import { StatementRows } from '../../statements/rows';
import { emptySection, type ParsedStatement, type StatementOrigin } from '../../statements/types';

/** A row as a provider states it (connectors/provider.ts FeedRow: restated, the ledger points at nothing above it). */
export interface FeedRowInput {
  externalId: string;
  date: string;
  amount: string;
  description: string;
  pending: boolean;
  pendingId?: string | null;
}

/** The feed's booked rows as a statement of one account in its currency, for the one import path. */
export function feedStatement(rows: readonly FeedRowInput[], currency: string): ParsedStatement<StatementOrigin> {
  const statementRows = StatementRows.from(rows.map((r, i) => ({ section: 0, line: i + 1, date: r.date, amount: r.amount, description: r.description, externalId: r.externalId })));
  return { format: 'feed', encoding: 'utf-8', sections: [{ ...emptySection(0), currency }], rows: statementRows, errors: [], ignored: [] };
}
