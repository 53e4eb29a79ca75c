// The baseline: the same SQL as the ledger issues, served by bare node:http +
// better-sqlite3 (no express, no auth, no validation), on the same file.
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

const [file, orgSeqText] = process.argv.slice(2);
const orgSeq = Number(orgSeqText);
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('busy_timeout = 5000');

// Lists are read as arrays and zipped into objects, as the ledger reads them
// (cheaper than better-sqlite3's row objects on a 50-row page).
const names = new Map<Database.Statement, string[]>();
function rows(stmt: Database.Statement, ...args: unknown[]): Record<string, unknown>[] {
  let cols = names.get(stmt);
  if (!cols) names.set(stmt, (cols = stmt.columns().map((c) => c.name)));
  return (stmt.raw(true).all(...args) as unknown[][]).map((r) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < r.length; i++) row[cols[i]] = r[i];
    return row;
  });
}

const COLS = 'seq, id, date, amount_minor, currency, description, category_seq, status, source, external_id, suggested_by, confidence, reason';
const page = (where: string) =>
  db.prepare(
    `SELECT ${COLS.split(', ')
      .map((c) => `t.${c}`)
      .join(', ')} FROM (SELECT seq FROM transactions WHERE ${where} ORDER BY date DESC, seq DESC LIMIT ? OFFSET ?) p JOIN transactions t ON t.seq = p.seq`,
  );
const q = {
  first: page('org_seq = ?'),
  firstCount: db.prepare('SELECT coalesce(sum(n), 0) n FROM transaction_status_counts WHERE org_seq = ?'),
  status: page('org_seq = ? AND status = ?'),
  statusCount: db.prepare('SELECT coalesce(sum(n), 0) n FROM transaction_status_counts WHERE org_seq = ? AND status = ?'),
  // transactions_fts is keyed org << 48 | day << 32 | seq (migration 0002).
  desc: db.prepare(
    `SELECT ${COLS.split(', ')
      .map((c) => `t.${c}`)
      .join(
        ', ',
      )} FROM (SELECT f.rowid & 4294967295 AS seq FROM transactions_fts f WHERE f.transactions_fts MATCH ? AND f.rowid BETWEEN ? AND ? ORDER BY f.rowid DESC LIMIT ? OFFSET ?) p JOIN transactions t ON t.seq = p.seq`,
  ),
  // A needle without digits, used alone: counted over the description shapes (migration 0004).
  descCount: db.prepare(
    'SELECT coalesce(sum(s.n), 0) AS n FROM description_shapes_fts f JOIN description_shapes s ON s.seq = f.rowid WHERE f.description_shapes_fts MATCH ? AND s.org_seq = ?',
  ),
  range: page('org_seq = ? AND date >= ? AND date <= ?'),
  rangeCount: db.prepare('SELECT coalesce(sum(n), 0) n FROM transaction_day_counts WHERE org_seq = ? AND date >= ? AND date <= ?'),
  one: db.prepare(`SELECT ${COLS} FROM transactions WHERE id = ? AND org_seq = ?`),
  notes: db.prepare(
    'SELECT n.id, t.id AS transactionId, n.content, n.author_user_id AS authorUserId, n.created_at AS createdAt FROM notes n JOIN transactions t ON t.seq = n.transaction_seq WHERE n.transaction_seq = ? ORDER BY n.created_at, n.seq',
  ),
  receipts: db.prepare(
    'SELECT r.id, t.id AS transactionId, r.file_name AS fileName, r.mime_type AS mimeType, r.size_bytes AS sizeBytes, r.ocr_text AS ocrText, r.created_at AS createdAt FROM receipts r LEFT JOIN transactions t ON t.seq = r.transaction_seq WHERE r.transaction_seq = ? ORDER BY r.created_at, r.seq',
  ),
  lastMonth: db.prepare('SELECT max(month) AS last FROM line_month_totals WHERE org_seq = ? AND currency = ? AND n > 0'),
  months: db.prepare(
    'SELECT month, kind, category_seq, sum(sum_minor) AS minor FROM line_month_totals WHERE org_seq = ? AND currency = ? AND month BETWEEN ? AND ? AND n > 0 GROUP BY month, kind, category_seq',
  ),
  cash: db.prepare('SELECT coalesce(sum(m.sum_minor), 0) AS cash FROM account_month_totals m JOIN accounts a ON a.seq = m.account_seq WHERE a.org_seq = ? AND a.currency = ?'),
  statusCounts: db.prepare('SELECT status, sum(n) AS n FROM transaction_status_counts WHERE org_seq = ? GROUP BY status'),
  pending: db.prepare("SELECT coalesce(sum(n), 0) AS pending FROM proposal_status_counts WHERE org_seq = ? AND status = 'pending'"),
  recent: db.prepare(`SELECT ${COLS} FROM transactions WHERE org_seq = ? ORDER BY date DESC, seq DESC LIMIT 10`),
  connectors: db.prepare('SELECT id, name, provider, status, last_sync_at AS lastSyncAt, sync_status AS syncStatus FROM connectors WHERE org_seq = ?'),
  search: db.prepare(
    'SELECT r.id, t.id AS transactionId, r.file_name AS fileName, r.mime_type AS mimeType, r.size_bytes AS sizeBytes, r.ocr_text AS ocrText, r.created_at AS createdAt FROM receipts_fts f JOIN receipts r ON r.seq = f.rowid LEFT JOIN transactions t ON t.seq = r.transaction_seq WHERE f.receipts_fts MATCH ? AND r.org_seq = ? ORDER BY f.rowid DESC LIMIT 50',
  ),
  insertProposal: db.prepare(
    "INSERT INTO proposals (id, org_seq, type, status, payload, proposed_by, token_seq, confidence, reason, created_at) VALUES (?, ?, 'categorization', 'pending', ?, ?, NULL, ?, ?, ?)",
  ),
  insertAudit: db.prepare(
    "INSERT INTO audit_log (id, org_seq, at, actor_type, actor_id, actor_name, channel, action, target_type, target_id, summary) VALUES (?, ?, ?, 'token', 'bench', 'bench', 'rest', 'proposal.created', 'proposal', ?, 'bench')",
  ),
};
const propose = db.transaction((body: { transactionId: string; categoryCode: string }) => {
  const [tx] = rows(q.one, body.transactionId, orgSeq) as { seq: number }[];
  if (!tx) return undefined;
  const id = randomUUID();
  const now = new Date().toISOString();
  q.insertProposal.run(id, orgSeq, JSON.stringify({ ...body, category: 'Cloud infrastructure', evidence: [] }), 'mcp:bench', 0.9, 'bench', now);
  q.insertAudit.run(randomUUID(), orgSeq, now, id);
  return { id, status: 'pending' };
});

function route(url: URL, body: string): unknown {
  const p = url.searchParams;
  const limit = Number(p.get('limit') ?? 50);
  const offset = Number(p.get('offset') ?? 0);
  const path = url.pathname.replace('/api/v1', '');
  if (path === '/transactions') {
    if (p.has('status')) return { data: rows(q.status, orgSeq, p.get('status'), limit, offset), meta: q.statusCount.get(orgSeq, p.get('status')) };
    if (p.has('description')) {
      const m = `"${p.get('description')}"`;
      const lo = BigInt(orgSeq) << 48n;
      const hi = lo | 0xffffffffffffn;
      return { data: rows(q.desc, m, lo, hi, limit, offset), meta: q.descCount.get(m, orgSeq) };
    }
    if (p.has('dateFrom'))
      return { data: rows(q.range, orgSeq, p.get('dateFrom'), p.get('dateTo'), limit, offset), meta: q.rangeCount.get(orgSeq, p.get('dateFrom'), p.get('dateTo')) };
    return { data: rows(q.first, orgSeq, limit, offset), meta: q.firstCount.get(orgSeq) };
  }
  if (path.startsWith('/transactions/')) {
    const [tx] = rows(q.one, path.slice('/transactions/'.length), orgSeq) as { seq: number }[];
    return { data: { transaction: tx, notes: rows(q.notes, tx.seq), receipts: rows(q.receipts, tx.seq) } };
  }
  if (path === '/dashboard/summary') {
    const { last } = q.lastMonth.get(orgSeq, 'USD') as { last: string };
    return {
      data: {
        months: q.months.all(orgSeq, 'USD', '0000', last),
        cash: q.cash.get(orgSeq, 'USD'),
        counts: q.statusCounts.all(orgSeq),
        pending: q.pending.get(orgSeq),
        recent: rows(q.recent, orgSeq),
        connectors: q.connectors.all(orgSeq),
      },
    };
  }
  if (path === '/receipts/search') {
    const m = `"${p.get('q')}"`;
    return { data: rows(q.search, m, orgSeq) };
  }
  if (path === '/proposals/categorization') return { data: propose(JSON.parse(body)) };
  return null;
}

const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const result = route(new URL(req.url!, 'http://127.0.0.1'), body);
    res.writeHead(result ? (req.method === 'POST' ? 201 : 200) : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(result));
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${(server.address() as { port: number }).port}\n`));
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => server.close(() => process.exit(0)));
