// The fields every input is made of (a date, an id, a line of text, an amount): the desk operations' inputs use
// these alone, so an owner command builds them without the API's resource schemas (api/schemas.ts, which
// re-exports them: one definition).
import * as z from 'zod';
// LIMIT_TEXT, not toLocaleString: the first call of Intl's number format costs a command ~15 ms at start.
import { AMOUNT_LIMIT, LIMIT_TEXT } from '../../shared/amounts';
import { isCalendarDate } from '../../shared/dates';

export const DateString = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine(isCalendarDate, 'must be a real calendar date')
  .meta({ format: 'date', example: '2025-03-02' });
export const DateTime = z.string().meta({ format: 'date-time' });
/** Ids are lower-case UUIDs; input in any case is accepted and lower-cased (RFC 9562 compares them case-insensitively). */
export const Uuid = z.uuid({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a uuid') }).toLowerCase();

/** One line of text (a filter, a name, a description): no control characters at all. */
export const Line = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters (NUL, tab, line breaks...)');
/** Free text (a note, a reason): tabs and line breaks allowed, other control characters not. */
export const Prose = (max: number) =>
  z
    .string()
    .max(max, `must be at most ${max} characters`)
    .regex(/^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/, 'must not contain control characters other than tab and line breaks');
export const Confidence = z.number().min(0).max(1).describe('0 to 1; people see a percentage');
export const Reason = Prose(2000).describe('Why, for the reviewer, in a sentence or two');
/** An amount as the API takes it: finite and below the ledger's limit (decimals are checked against the currency later). */
export const Amount = z
  .number()
  .refine(Number.isFinite, 'must be a finite number')
  .refine((n) => Math.abs(n) < AMOUNT_LIMIT, `must be ${LIMIT_TEXT}`)
  .meta({ exclusiveMinimum: -AMOUNT_LIMIT, exclusiveMaximum: AMOUNT_LIMIT });
export const CurrencyCode = z.string().regex(/^[A-Za-z]{3}$/, 'must be exactly 3 letters');
export const NoInput = z.strictObject({});
