// The Practice screen's columns, in the order shown: each a module (column.ts
// says what one is); a new one is one more module and one more line here.
import type { PracticeColumn } from '../column';
import { closing } from './closing';
import { feeds } from './feeds';
import { hmrc } from './hmrc';
import { reminders } from './reminders';
import { repeating } from './repeating';
import { billsDue, invoicesOverdue } from './documents';
import { reconciled } from './reconciled';
import { tax } from './tax';
import { proposals, review } from './work';

export const PRACTICE_COLUMNS: readonly PracticeColumn[] = [review, proposals, reconciled, feeds, tax, hmrc, invoicesOverdue, billsDue, repeating, reminders, closing];

export const PRACTICE_COLUMN_IDS = PRACTICE_COLUMNS.map((c) => c.id);
