// The transaction list's query (REST, MCP, the desk's `tx list`) and the paging every list takes: apart from the
// API's resource schemas (api/schemas.ts re-exports them), so that an owner command listing transactions builds
// these alone (docs/benchmarks.md, "Start-up").
import * as z from 'zod';
import { TRANSACTION_SOURCES, TRANSACTION_STATUSES } from '../ledger/transactions/transactions';
import { DateString, Line } from './fields';

export const Status = z.enum(TRANSACTION_STATUSES);
export const Source = z.enum(TRANSACTION_SOURCES);

// Query strings arrive as text over REST and as JSON values over MCP: accept
// both, but only decimal digits as text (Number() would take 0x10, 0b11, 1e2).
const decimalInteger = (value: unknown) => (typeof value === 'string' && /^-?\d{1,16}$/.test(value) ? Number(value) : value);
const intParam = (min: number, max: number, fallback: number) =>
  z
    .preprocess(
      decimalInteger,
      z
        .number({ error: (issue) => (issue.code === 'invalid_type' ? 'must be an integer written in decimal digits' : undefined) })
        .int('must be an integer')
        .min(min, `must be at least ${min}`)
        .max(max, `must be at most ${max}`),
    )
    .default(fallback)
    // The preprocessing is not JSON Schema: say what is accepted.
    .meta({ type: 'integer', minimum: min, ...(max < Number.MAX_SAFE_INTEGER ? { maximum: max } : {}), default: fallback });

export const paging = {
  limit: intParam(1, 500, 50).describe('1 to 500, default 50; use 50 or less'),
  offset: intParam(0, Number.MAX_SAFE_INTEGER, 0).describe('Items to skip, default 0'),
};

export const TransactionsQuery = z.strictObject({
  status: Status.optional().describe('Only this status (uncategorized: work to do)'),
  source: Source.optional().describe('Only this source'),
  date: DateString.optional().describe('Exact date'),
  dateFrom: DateString.optional().describe('Inclusive start'),
  dateTo: DateString.optional().describe('Inclusive end'),
  category: Line(200).min(1).optional().describe('Exact category name, or __uncategorized__'),
  description: Line(200).min(1).optional().describe('Case-insensitive substring of the description, at most 200 characters'),
  ...paging,
});

/** GET /proposals pages like the transaction list: the review backlog can be long. */
export const ProposalsQuery = z.strictObject(paging);
