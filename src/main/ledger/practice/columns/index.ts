// The Practice screen's columns, in the order shown: each a module (column.ts
// says what one is). Bank feeds' connectors, HMRC's obligations, repeating
// invoices and reminders each come as one more module and one more line here.
import type { PracticeColumn } from '../column';
import { closing } from './closing';
import { billsDue, invoicesOverdue } from './documents';
import { reconciled } from './reconciled';
import { tax } from './tax';
import { proposals, review } from './work';

export const PRACTICE_COLUMNS: readonly PracticeColumn[] = [review, proposals, reconciled, tax, invoicesOverdue, billsDue, closing];

export const PRACTICE_COLUMN_IDS = PRACTICE_COLUMNS.map((c) => c.id);
