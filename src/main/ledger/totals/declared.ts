// The running totals, declared once: each a table of sums over the rows of a
// source table, keyed by expressions of a row. From this list come the
// triggers that keep them (their SQL and their names: triggerSql), the bulk
// path that lifts exactly those triggers and keeps the totals set-wise
// (aggregates.ts, bulk.ts), and the tests' recount of every total from the
// rows (recountSql). Reports read the tables (sums.ts).
import { descriptionShape } from '../transactions/shape';

/** What the totals need of each transaction written in bulk. */
export interface BulkRow {
  orgSeq: number;
  accountSeq: number;
  date: string;
  status: string;
  /** 1 when a reconciliation cleared it (account totals keep those apart). */
  reconciled: number;
  source: string;
  currency: string;
  amountMinor: number;
  description: string;
  category: string | null;
}

/** A key column: its SQL over a row ($ stands for NEW or OLD) and, for the bulk path of transactions, over a BulkRow. */
export interface KeyPart {
  column: string;
  sql: string;
  js?: (r: BulkRow) => string | number;
}

/** What a total adds up per row: a count, the amount, or the money in or out. */
export const MEASURES = {
  n: { sql: '1', js: () => 1 },
  sum_minor: { sql: '$.amount_minor', js: (r: { amountMinor: number }) => r.amountMinor },
  inflow_minor: { sql: 'max($.amount_minor, 0)', js: (r: { amountMinor: number }) => Math.max(r.amountMinor, 0) },
  outflow_minor: { sql: 'max(-$.amount_minor, 0)', js: (r: { amountMinor: number }) => Math.max(-r.amountMinor, 0) },
} as const;
export type Measure = keyof typeof MEASURES;

export interface Total {
  table: string;
  source: 'transactions' | 'proposals';
  /** In the order of the table's primary key (or unique index). */
  key: KeyPart[];
  measures: Measure[];
  /** Keyed by a row's own text (a description's shape): the bulk path counts it row by row. */
  perRow?: boolean;
}

const part = (column: string, js?: KeyPart['js'], sql = `$.${column}`): KeyPart => ({ column, sql, js });
const org = part('org_seq', (r) => r.orgSeq);
const account = part('account_seq', (r) => r.accountSeq);
const date = part('date', (r) => r.date);
const month = part('month', (r) => r.date.slice(0, 7), 'substr($.date, 1, 7)');
const status = part('status', (r) => r.status);
const reconciled = part('reconciled', (r) => r.reconciled);
const source = part('source', (r) => r.source);
const currency = part('currency', (r) => r.currency);
const category = part('category', (r) => r.category ?? '', "coalesce($.category, '')");
/** The description with its digits as # (transactions/shape.ts, here in SQL). */
const SHAPE_SQL = [...'0123456789'].reduce((sql, digit) => `replace(${sql}, '${digit}', '#')`, '$.description');
const shape = part('shape', (r) => descriptionShape(r.description), SHAPE_SQL);

export const TOTALS: readonly Total[] = [
  /** Rows per day, status and source: a list's exact totalCount from few rows, and the deep page's start. */
  { table: 'transaction_day_counts', source: 'transactions', key: [org, date, status, source], measures: ['n'] },
  { table: 'transaction_status_counts', source: 'transactions', key: [org, status, source], measures: ['n'] },
  /** Money in and out per month: the dashboard. */
  { table: 'transaction_month_totals', source: 'transactions', key: [org, currency, month], measures: ['inflow_minor', 'outflow_minor'] },
  /** Each account's movements, reconciled ones apart: balances at any date, the reconciled balance. */
  { table: 'account_day_totals', source: 'transactions', key: [account, date, status, reconciled], measures: ['n', 'sum_minor'] },
  { table: 'account_month_totals', source: 'transactions', key: [account, month, status, reconciled], measures: ['n', 'sum_minor'] },
  /** Each category's movements: the profit and loss of any period. */
  { table: 'category_day_totals', source: 'transactions', key: [org, currency, date, category], measures: ['n', 'sum_minor'] },
  { table: 'category_month_totals', source: 'transactions', key: [org, currency, month, category], measures: ['n', 'sum_minor'] },
  /** Rows per description shape: a description filter's count without reading the rows. */
  { table: 'description_shapes', source: 'transactions', key: [org, shape], measures: ['n'], perRow: true },
  /** Proposals per status: the pending count at any backlog. */
  { table: 'proposal_status_counts', source: 'proposals', key: [part('org_seq'), part('status')], measures: ['n'] },
];

export const TRANSACTION_TOTALS = TOTALS.filter((t) => t.source === 'transactions');

export type TriggerEvent = 'ai' | 'ad' | 'au';

/** The trigger keeping a total on an event: its name is the table's and the event's, which the bulk path lifts. */
export const triggerName = (t: Total, event: TriggerEvent): string => `totals_${t.table}_${event}`;

const on = (sql: string, row: 'NEW' | 'OLD') => sql.replaceAll('$.', `${row}.`);

/** The columns of the source a total reads: an update of any of them moves a row from one key to another. */
export const watchedColumns = (t: Total): string[] => [
  ...new Set([...t.key.map((k) => k.sql), ...t.measures.map((m) => MEASURES[m].sql)].flatMap((sql) => [...sql.matchAll(/\$\.(\w+)/g)].map((m) => m[1]))),
];

function upsert(t: Total, row: 'NEW' | 'OLD', sign: 1 | -1): string {
  const keys = t.key.map((k) => k.column).join(', ');
  const values = [...t.key.map((k) => on(k.sql, row)), ...t.measures.map((m) => (sign < 0 ? `-(${on(MEASURES[m].sql, row)})` : on(MEASURES[m].sql, row)))].join(', ');
  const add = t.measures.map((m) => `${m} = ${m} + excluded.${m}`).join(', ');
  return `INSERT INTO ${t.table} (${keys}, ${t.measures.join(', ')}) VALUES (${values})\n    ON CONFLICT (${keys}) DO UPDATE SET ${add};`;
}

/** The SQL of the trigger keeping a total on an event (an update: only when a watched column changes). */
export function triggerSql(t: Total, event: TriggerEvent): string {
  const name = triggerName(t, event);
  if (event === 'ai') return `CREATE TRIGGER ${name} AFTER INSERT ON ${t.source} BEGIN\n  ${upsert(t, 'NEW', 1)}\nEND`;
  if (event === 'ad') return `CREATE TRIGGER ${name} AFTER DELETE ON ${t.source} BEGIN\n  ${upsert(t, 'OLD', -1)}\nEND`;
  const watched = watchedColumns(t);
  const changed = watched.map((c) => `OLD.${c} IS NOT NEW.${c}`).join(' OR ');
  return `CREATE TRIGGER ${name} AFTER UPDATE OF ${watched.join(', ')} ON ${t.source} WHEN ${changed} BEGIN\n  ${upsert(t, 'OLD', -1)}\n  ${upsert(t, 'NEW', 1)}\nEND`;
}

export const EVENTS: readonly TriggerEvent[] = ['ai', 'ad', 'au'];

/** Every total recounted from its source's rows: each key with its sums (for the tests). */
export function recountSql(t: Total): string {
  const keys = t.key.map((k) => k.sql.replaceAll('$.', ''));
  return `SELECT ${keys.join(', ')}, ${t.measures.map((m) => `sum(${MEASURES[m].sql.replaceAll('$.', '')})`).join(', ')} FROM ${t.source} GROUP BY ${keys.join(', ')}`;
}
