// The running totals, declared once: each a table of sums over the rows of a
// source table (transactions: the money-account lines; lines: every other
// line of an entry; proposals), keyed by expressions of a row. From this list come the
// triggers that keep them (their SQL and their names: triggerSql), the bulk
// path that lifts exactly those triggers and keeps the totals set-wise
// (aggregates.ts, bulk.ts), and the tests' recount of every total from the
// rows (recountSql). Reports read the tables (sums.ts).
import { descriptionShape } from '../transactions/shape';

/** What the totals need of each transaction (its money-account line) written in bulk. */
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
  /** In the base currency; null: awaiting a rate (counts 0). */
  baseMinor: number | null;
  description: string;
}

/** What the totals need of each of an entry's other lines written in bulk (transactions/lines.ts). */
export interface BulkLine {
  orgSeq: number;
  currency: string;
  date: string;
  kind: string;
  categorySeq: number | null;
  amountMinor: number;
  baseMinor: number | null;
}

/** What a bulk write reports of each row and each line it writes (or, deleting, takes away). */
export interface Track {
  row(r: BulkRow): void;
  line(l: BulkLine): void;
}

/** A key column: its SQL over a row ($ stands for NEW or OLD) and, for the bulk path, over a bulk row of its source. */
export interface KeyPart<R = unknown> {
  column: string;
  sql: string;
  js?(r: R): string | number;
}

/** What a total adds up per row: a count, or the amount. */
export const MEASURES = {
  n: { sql: '1', js: () => 1 },
  sum_minor: { sql: '$.amount_minor', js: (r: { amountMinor: number }) => r.amountMinor },
  /** The base currency's (issue 30): a row awaiting a rate adds nothing until it has one. */
  sum_base: { sql: 'coalesce($.base_minor, 0)', js: (r: { baseMinor: number | null }) => r.baseMinor ?? 0 },
} as const;
export type Measure = keyof typeof MEASURES;

export type Source = 'transactions' | 'lines' | 'postings' | 'proposals';

export interface Total<R = unknown> {
  table: string;
  source: Source;
  /** In the order of the table's primary key (or unique index). */
  key: KeyPart<R>[];
  measures: Measure[];
  /** Keyed by a row's own text (a description's shape): the bulk path counts it row by row. */
  perRow?: boolean;
}

const part = <R>(column: string, js?: (r: R) => string | number, sql = `$.${column}`): KeyPart<R> => ({ column, sql, js });
type T = BulkRow;
const org = part<T>('org_seq', (r) => r.orgSeq);
const account = part<T>('account_seq', (r) => r.accountSeq);
const date = part<T>('date', (r) => r.date);
const month = part<T>('month', (r) => r.date.slice(0, 7), 'substr($.date, 1, 7)');
const status = part<T>('status', (r) => r.status);
const reconciled = part<T>('reconciled', (r) => r.reconciled);
const source = part<T>('source', (r) => r.source);
/** The description with its digits as # (transactions/shape.ts, here in SQL). */
const SHAPE_SQL = [...'0123456789'].reduce((sql, digit) => `replace(${sql}, '${digit}', '#')`, '$.description');
const shape = part<T>('shape', (r) => descriptionShape(r.description), SHAPE_SQL);

type Li = BulkLine;
const lineKey: KeyPart<Li>[] = [
  part<Li>('org_seq', (r) => r.orgSeq),
  part<Li>('currency', (r) => r.currency),
  part<Li>('date', (r) => r.date),
  part<Li>('kind', (r) => r.kind),
  part<Li>('category_seq', (r) => r.categorySeq ?? 0, 'coalesce($.category_seq, 0)'),
];
const byMonth = (key: KeyPart<Li>[]): KeyPart<Li>[] => key.map((k) => (k.column === 'date' ? part<Li>('month', (r) => r.date.slice(0, 7), 'substr($.date, 1, 7)') : k));

export const TRANSACTION_TOTALS: readonly Total<BulkRow>[] = [
  /** Rows per day, status and source: a list's exact totalCount from few rows, and the deep page's start. */
  { table: 'transaction_day_counts', source: 'transactions', key: [org, date, status, source], measures: ['n'] },
  { table: 'transaction_status_counts', source: 'transactions', key: [org, status, source], measures: ['n'] },
  /** Each money account's movements, reconciled ones apart: balances at any date, the reconciled balance. */
  { table: 'account_day_totals', source: 'transactions', key: [org, account, date, status, reconciled], measures: ['n', 'sum_minor', 'sum_base'] },
  { table: 'account_month_totals', source: 'transactions', key: [org, account, month, status, reconciled], measures: ['n', 'sum_minor', 'sum_base'] },
  /** Rows per description shape: a description filter's count without reading the rows. */
  { table: 'description_shapes', source: 'transactions', key: [org, shape], measures: ['n'], perRow: true },
];

/** The other lines' movements per kind and category: the profit and loss, the balance sheet, the trial balance. */
export const LINE_TOTALS: readonly Total<BulkLine>[] = [
  { table: 'line_day_totals', source: 'lines', key: lineKey, measures: ['n', 'sum_minor', 'sum_base'] },
  { table: 'line_month_totals', source: 'lines', key: byMonth(lineKey), measures: ['n', 'sum_minor', 'sum_base'] },
];

/** The entries of issued invoices, credit notes and bills (issue 29): lines without a bank row, in the same totals. */
export const POSTING_TOTALS: readonly Total<BulkLine>[] = LINE_TOTALS.map((t) => ({ ...t, source: 'postings' }));

export const TOTALS: readonly Total[] = [
  ...(TRANSACTION_TOTALS as readonly Total[]),
  ...(LINE_TOTALS as readonly Total[]),
  ...(POSTING_TOTALS as readonly Total[]),
  /** Proposals per status: the pending count at any backlog. */
  { table: 'proposal_status_counts', source: 'proposals', key: [part('org_seq'), part('status')], measures: ['n'] },
  /** Proposals per status, kind and proposer (issue 55): the Practice screen's waiting by kind, and those a person may approve. */
  { table: 'proposal_kind_counts', source: 'proposals', key: [part('org_seq'), part('status'), part('type'), part('proposed_by')], measures: ['n'] },
];

export type TriggerEvent = 'ai' | 'ad' | 'au';

/** The trigger keeping a total on an event: its name is the table's and the event's, which the bulk path lifts. */
export const triggerName = (t: Total, event: TriggerEvent): string => `totals_${t.table}${t.source === 'postings' ? '_postings' : ''}_${event}`;

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

/** Every total recounted from its sources' rows (a table may sum more than one): each key with its sums (for the tests). */
export function recountSql(t: Total): string {
  const keys = t.key.map((k) => k.column);
  const from = TOTALS.filter((o) => o.table === t.table).map(
    (o) =>
      `SELECT ${o.key.map((k) => `${k.sql.replaceAll('$.', '')} AS ${k.column}`).join(', ')}, ${o.measures.map((m) => `${MEASURES[m].sql.replaceAll('$.', '')} AS ${m}`).join(', ')} FROM ${o.source}`,
  );
  return `SELECT ${keys.join(', ')}, ${t.measures.map((m) => `sum(${m})`).join(', ')} FROM (${from.join(' UNION ALL ')}) AS sub GROUP BY ${keys.join(', ')}`;
}
