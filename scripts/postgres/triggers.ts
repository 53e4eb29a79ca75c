// The triggers of a firm's server. The running totals come from their one
// declaration (src/main/ledger/totals/declared.ts), as SQLite's row triggers do,
// but as statement-level triggers over transition tables: each statement's rows
// grouped by key and upserted once per key, in key order (so two writers never
// wait on each other's keys crosswise). A bulk load is then one upsert per key,
// not one per row, and nothing is dropped and made again at run time.
import { MEASURES, TOTALS, type Source, type Total } from '../../src/main/ledger/totals/declared';

const over = (sql: string): string => sql.replaceAll('$.', '');

/** The SELECT that groups a transition table's rows (or two, an update's old taken away and new added) by a total's key. */
function grouped(t: Total, from: { table: string; sign: 1 | -1 }[]): string {
  const keys = t.key.map((k, i) => `${over(k.sql)} AS k${i}`);
  const measures = (sign: 1 | -1) => t.measures.map((m) => `${sign < 0 ? `-(${over(MEASURES[m].sql)})` : over(MEASURES[m].sql)} AS ${m}`);
  const positions = t.key.map((_, i) => i + 1).join(', ');
  const sums = t.measures.map((m) => `sum(${m})`);
  const rows = from.map((f) => `SELECT ${[...keys, ...measures(f.sign)].join(', ')} FROM ${f.table}`).join('\n      UNION ALL ');
  const changed = from.length > 1 ? `\n    HAVING ${sums.map((s) => `${s} <> 0`).join(' OR ')}` : '';
  return `SELECT ${[...t.key.map((_, i) => `k${i}`), ...sums].join(', ')}\n    FROM (${rows}) AS d\n    GROUP BY ${positions}${changed}\n    ORDER BY ${positions}`;
}

function upsert(t: Total, from: { table: string; sign: 1 | -1 }[]): string {
  const keys = t.key.map((k) => k.column).join(', ');
  const add = t.measures.map((m) => `${m} = t.${m} + excluded.${m}`).join(', ');
  return `  INSERT INTO ${t.table} AS t (${keys}, ${t.measures.join(', ')})\n    ${grouped(t, from)}\n    ON CONFLICT (${keys}) DO UPDATE SET ${add};`;
}

const EVENTS = [
  { event: 'ai', on: 'INSERT', referencing: 'NEW TABLE AS new_rows', from: [{ table: 'new_rows', sign: 1 }] },
  { event: 'ad', on: 'DELETE', referencing: 'OLD TABLE AS old_rows', from: [{ table: 'old_rows', sign: -1 }] },
  {
    event: 'au',
    on: 'UPDATE',
    referencing: 'OLD TABLE AS old_rows NEW TABLE AS new_rows',
    from: [
      { table: 'old_rows', sign: -1 },
      { table: 'new_rows', sign: 1 },
    ],
  },
] as const;

/** One function and trigger per source table and event, keeping every total of that source. */
export function totalsSql(): string[] {
  const sources = [...new Set(TOTALS.map((t) => t.source))] as Source[];
  const table = (source: Source) => (source === 'postings' ? 'postings' : source);
  return sources.flatMap((source) =>
    EVENTS.map(({ event, on, referencing, from }) => {
      const name = `totals_${source}_${event}`;
      const body = TOTALS.filter((t) => t.source === source)
        .map((t) => upsert(t, [...from]))
        .join('\n');
      return `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
${body}
  RETURN NULL;
END $$;
CREATE TRIGGER ${name} AFTER ${on} ON ${table(source)} REFERENCING ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION ${name}();`;
    }),
  );
}

/** SQLite's other triggers (db/migrations), the same rules here. */
export const RULES = [
  // Every row belongs to an account of its currency: checked once per statement for inserts (an import's million
  // rows), per row for the rare update that moves a row or changes its currency.
  `CREATE FUNCTION transactions_require_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows n LEFT JOIN accounts a ON a.org_seq = n.org_seq AND a.seq = n.account_seq
             WHERE n.account_seq IS NULL OR a.seq IS NULL OR a.currency <> n.currency) THEN
    RAISE EXCEPTION 'every transaction belongs to an account of its currency';
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER transactions_require_account AFTER INSERT ON transactions REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transactions_require_account();`,
  `CREATE FUNCTION transactions_require_account_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.account_seq IS NULL OR NEW.currency IS DISTINCT FROM (SELECT currency FROM accounts WHERE org_seq = NEW.org_seq AND seq = NEW.account_seq) THEN
    RAISE EXCEPTION 'every transaction belongs to an account of its currency';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER transactions_require_account_update BEFORE UPDATE OF account_seq, currency ON transactions FOR EACH ROW EXECUTE FUNCTION transactions_require_account_update();`,
  // An entry's lines carry its date (the totals and the general ledger read it there).
  `CREATE FUNCTION lines_follow_entry_date() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE lines SET date = NEW.date WHERE org_seq = NEW.org_seq AND transaction_seq = NEW.seq;
  RETURN NULL;
END $$;
CREATE TRIGGER lines_follow_entry_date AFTER UPDATE OF date ON transactions FOR EACH ROW WHEN (OLD.date IS DISTINCT FROM NEW.date) EXECUTE FUNCTION lines_follow_entry_date();`,
  // A proposal is reviewed once, and reversed once.
  `CREATE FUNCTION proposals_review_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'proposal already reviewed';
END $$;
CREATE TRIGGER proposals_review_once BEFORE UPDATE OF status ON proposals FOR EACH ROW WHEN (OLD.status <> 'pending') EXECUTE FUNCTION proposals_review_once();`,
  `CREATE FUNCTION proposals_reverse_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'proposal already reversed';
END $$;
CREATE TRIGGER proposals_reverse_once BEFORE UPDATE OF reversed_at ON proposals FOR EACH ROW WHEN (OLD.reversed_at IS NOT NULL) EXECUTE FUNCTION proposals_reverse_once();`,
  // How many description shapes each organization has (whether counting over shapes beats counting rows).
  `CREATE FUNCTION description_shapes_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO description_shape_totals AS t (org_seq, shapes)
    SELECT org_seq, count(*) FROM new_rows GROUP BY org_seq ORDER BY org_seq
    ON CONFLICT (org_seq) DO UPDATE SET shapes = t.shapes + excluded.shapes;
  RETURN NULL;
END $$;
CREATE TRIGGER description_shapes_count AFTER INSERT ON description_shapes REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION description_shapes_count();`,
  // The audit log is append-only (the server's role may not update or delete it either).
  `CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only';
END $$;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();`,
];
