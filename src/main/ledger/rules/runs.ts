// Running the person's rules over uncategorized rows: on demand (all of the
// organization's) and after each import (that import's rows). Each row gets
// the first enabled rule that matches it; a suggesting rule files a pending
// proposal (by the rule, with the rule as its evidence), an applying rule
// categorizes at once. One audit entry per rule and run says how many rows it
// took; the run, its writes and those entries commit together.
//
// Matching is one pass over the rows (match.ts). Writing is one more pass
// in row order, whatever rule took each row: rule by rule, each rule's rows
// would be spread over the whole table, and every rule would walk all of its
// pages again (npm run bench: 200 rules over 1,000,000 rows).
import { BatchInsert } from '../core/batch';
import type { Actor } from '../access/audit';
import { appendAudit } from '../access/audit';
import { EntryAggregates, BULK_ROWS, proposeInBulk, updateInBulk } from '../totals/bulk';
import { resolveCategory, type ResolvedCategory } from '../chart/categories';
import { newTimeOrderedId, nowIso } from '../core/clock';
import type { Ledger } from '../core/sqlite/open';
import { withCache } from '../core/cache';
import { changeKeyOf, decidedChange } from '../proposals/proposals';
import { appliedLines, match, ruleLines, type Compiled, type Hits, type Totals } from './match';
import { defaultTaxOf, taxedLines } from '../tax/lines';
import { shareOut } from '../transactions/split';
import { describeRule, foldRuleText, ruleRows, ruleTarget, sharesOf } from './rules';
import { statusSql } from '../transactions/status';
import { fromMinor } from '../core/money';
import { insertLines, shownCategory, suspenseLine } from '../transactions/lines';
import { followSplitOrigin } from '../transactions/split-origin';
import { mapInOrder } from '../core/in-order';

export interface RuleRunScope {
  /** Only these rules (ids); all enabled rules otherwise. */
  ruleIds?: string[];
  /** Only the rows of this import batch. */
  importBatchSeq?: number;
  /** Said in the audit entries: "on demand", "after importing x.ofx". */
  occasion?: string;
}

export interface RuleRunResult {
  /** Uncategorized rows looked at. */
  rows: number;
  suggested: number;
  applied: number;
  /** Matched, but the same change is already pending or a person rejected it. */
  alreadyDecided: number;
  rules: { id: string; position: number; suggested: number; applied: number; skipped: string | null }[];
}

/** A run over a million rows touches more pages than SQLite's 2 MB default cache holds; rule by rule, spilling them cost a fifth of the run (64 MB: as fast as 256 MB in one pass). */
const RUN_CACHE_KIB = 64 * 1024;

export async function runRules(ledger: Ledger, orgSeq: number, actor: Actor, scope: RuleRunScope = {}): Promise<RuleRunResult> {
  return withCache(ledger, RUN_CACHE_KIB, () => ledger.write(() => runAll(ledger, orgSeq, actor, scope)));
}

async function runAll(ledger: Ledger, orgSeq: number, actor: Actor, scope: RuleRunScope): Promise<RuleRunResult> {
  const wanted = scope.ruleIds ? new Set(scope.ruleIds.map((id) => id.toLowerCase())) : null;
  const rules = await mapInOrder(
    (await ruleRows(ledger, orgSeq)).filter((r) => (wanted ? wanted.has(r.id) : r.enabled === 1)),
    async (row, index): Promise<Compiled> => {
      const described = await describeRule(ledger, row);
      return {
        row,
        index,
        text: foldRuleText(row.match_text),
        sign: row.sign === 'inflow' ? 1 : row.sign === 'outflow' ? -1 : 0,
        accountSeq: row.account_seq,
        ...(await withTax(ledger, orgSeq, await offeredTarget(ledger, orgSeq, row), row.tax_code)),
        described,
        evidence: JSON.stringify([{ type: 'rule', value: described }]),
        suggested: 0,
        applied: 0,
        decided: 0,
      };
    },
  );
  const result: RuleRunResult = { rows: 0, suggested: 0, applied: 0, alreadyDecided: 0, rules: [] };
  if (rules.length === 0) return result;
  const hits: Hits = { seq: [], id: [], rule: [] };
  const totals: Totals = { before: new EntryAggregates(-1, false), after: new EntryAggregates(1, false) };
  result.rows = await match(ledger, orgSeq, rules, scope.importBatchSeq, hits, totals);
  await apply(ledger, orgSeq, rules, hits, totals);
  await suggest(ledger, orgSeq, rules, hits);
  const now = nowIso();
  for (const rule of rules) {
    result.suggested += rule.suggested;
    result.applied += rule.applied;
    result.alreadyDecided += rule.decided;
    const skipped = rule.category ? null : `category ${rule.row.category_code} is no longer offered by the chart`;
    result.rules.push({ id: rule.row.id, position: rule.row.position, suggested: rule.suggested, applied: rule.applied, skipped });
    await audit(ledger, orgSeq, actor, rule, scope.occasion ?? 'on demand', now);
  }
  return result;
}

async function offered(ledger: Ledger, orgSeq: number, code: string): Promise<ResolvedCategory | null> {
  try {
    return await resolveCategory(ledger, orgSeq, { categoryCode: code });
  } catch {
    return null;
  }
}

/** A rule's category, or its split's categories: all still offered by the chart, or none (the rule is skipped). */
async function offeredTarget(ledger: Ledger, orgSeq: number, row: Parameters<typeof sharesOf>[0] & { category_code: string }): Promise<Pick<Compiled, 'category' | 'shares'>> {
  const shares = sharesOf(row);
  if (!shares) return { category: await offered(ledger, orgSeq, row.category_code), shares: null };
  const resolved = await mapInOrder(shares, async (s) => ({ category: await offered(ledger, orgSeq, s.categoryCode), percent: s.percent }));
  if (resolved.some((s) => !s.category)) return { category: null, shares: null };
  return { category: resolved[0].category, shares: resolved as { category: ResolvedCategory; percent: number }[] };
}

/** A target whose categories have default tax codes writes taxed lines (row by row, at the rate of each row's date). */
async function withTax(
  ledger: Ledger,
  orgSeq: number,
  target: Pick<Compiled, 'category' | 'shares'>,
  taxCode: string | null,
): Promise<Pick<Compiled, 'category' | 'shares' | 'taxLines'>> {
  if (!target.category) return target;
  const shares = target.shares ?? [{ category: target.category, percent: 100 }];
  // The rule's own code (while it may still be used), else each category's default.
  const own = taxCode
    ? ((await ledger.stmt('SELECT seq FROM tax_codes WHERE org_seq = ? AND code = ? AND archived_at IS NULL').pluck().get(orgSeq, taxCode)) as number | undefined)
    : undefined;
  const codes = await mapInOrder(shares, async (s) => own ?? (await defaultTaxOf(ledger, s.category.seq)));
  if (codes.every((c) => c === null)) return target;
  const taxLines = async (amountMinor: number, date: string) => {
    const parts =
      shares.length === 1
        ? [amountMinor]
        : shareOut(
            amountMinor,
            shares.map((s) => s.percent),
          );
    return taxedLines(
      ledger,
      date,
      shares.flatMap((s, i) => (parts[i] === 0 ? [] : [{ categorySeq: s.category.seq, grossMinor: parts[i], taxCodeSeq: codes[i] }])),
    );
  };
  return { ...target, taxLines };
}

const by = (rule: Compiled) => `rule:${rule.row.id}`;

/**
 * The applying rules' rows: a rule of one category turns each row's suspense
 * line into its category line in one statement from a staging of them (SQLite:
 * a temporary table, never in the ledger file; PostgreSQL: arrays read with
 * unnest, no DDL at run time); a split's rows get their shares row by row. A
 * big run on SQLite lifts the row triggers and keeps the totals from what
 * match() read (bulk.ts).
 */
async function apply(ledger: Ledger, orgSeq: number, rules: Compiled[], hits: Hits, totals: Totals): Promise<void> {
  const mine = hits.rule.flatMap((r, at) => (rules[r].row.mode === 'apply' ? [at] : []));
  if (mine.length === 0) return;
  const staged: [number[], number[], string[]] = [[], [], []];
  const splits: number[] = [];
  for (const at of mine) {
    const rule = rules[hits.rule[at]];
    if (rule.shares || rule.taxLines) splits.push(at);
    else {
      staged[0].push(hits.seq[at]);
      staged[1].push(rule.category!.seq);
      staged[2].push(by(rule));
    }
    rule.applied++;
  }
  const staging = await stage(ledger, staged);
  // No reason on the row: suggested_by names the rule, and a row that grows less splits fewer pages.
  const update = async () => {
    await ledger
      .stmt(`UPDATE lines SET kind = 'category', category_seq = h.category_seq FROM ${staging.from} WHERE lines.transaction_seq = h.seq AND lines.kind = 'suspense'`)
      .run(...staging.params);
    const { changes } = await ledger
      .stmt(
        `UPDATE transactions SET category_seq = h.category_seq, status = ${statusSql('TRUE')}, suggested_by = h.by, confidence = NULL, reason = NULL
         FROM ${staging.from} WHERE transactions.seq = h.seq AND transactions.status = 'uncategorized'`,
      )
      .run(...staging.params);
    // Read uncategorized in this same transaction: every one is still there.
    if (changes !== mine.length - splits.length) throw new Error('a rule run lost a row it had matched');
    await applySplits(ledger, orgSeq, rules, hits, splits);
  };
  try {
    if (mine.length < BULK_ROWS) await update();
    else await updateInBulk(ledger, update, totals.before, totals.after);
  } finally {
    await staging.done();
  }
}

/** The rows a run applies, as `h(seq, category_seq, by)` of an UPDATE's FROM, and its parameters. */
async function stage(ledger: Ledger, [seqs, categories, bys]: [number[], number[], string[]]): Promise<{ from: string; params: unknown[]; done: () => Promise<void> }> {
  if (ledger.engine === 'postgres') {
    return { from: 'unnest(?::bigint[], ?::bigint[], ?::text[]) AS h(seq, category_seq, by)', params: [seqs, categories, bys], done: () => Promise.resolve() };
  }
  ledger.sqlite.exec('DROP TABLE IF EXISTS temp.rule_applied; CREATE TEMP TABLE rule_applied (seq INTEGER PRIMARY KEY, category_seq INTEGER, by TEXT)');
  const insert = ledger.sqlite.prepare('INSERT INTO temp.rule_applied VALUES (?, ?, ?)');
  for (let i = 0; i < seqs.length; i++) insert.run(seqs[i], categories[i], bys[i]);
  return { from: 'temp.rule_applied h', params: [], done: () => Promise.resolve(void ledger.sqlite.exec('DROP TABLE temp.rule_applied')) };
}

/** The rows a split rule takes: the suspense line gives way to the rule's shares. */
async function applySplits(ledger: Ledger, orgSeq: number, rules: Compiled[], hits: Hits, splits: number[]): Promise<void> {
  const head = ledger.stmt('SELECT seq, org_seq, date, currency, amount_minor, base_minor FROM transactions WHERE seq = ?');
  // Split or taxed rows: their lines one row at a time.
  const set = ledger.stmt(`UPDATE transactions SET category_seq = ?, status = ${statusSql('TRUE')}, suggested_by = ?, confidence = NULL, reason = NULL WHERE seq = ?`);
  for (const at of splits) {
    const rule = rules[hits.rule[at]];
    const row = (await head.get(hits.seq[at])) as { seq: number; org_seq: number; date: string; currency: string; amount_minor: number; base_minor: number | null };
    const lines = await appliedLines(rule, row.amount_minor, row.date);
    await followSplitOrigin(ledger, row.seq, lines, async () => [suspenseLine(row.amount_minor)]);
    await ledger.stmt('DELETE FROM lines WHERE transaction_seq = ?').run(row.seq);
    await insertLines(ledger, { ...row, org_seq: orgSeq }, lines);
    await set.run(shownCategory(lines), by(rule), row.seq);
  }
}

/**
 * The suggesting rules' rows: a pending proposal each, unless the same change
 * is pending already or was rejected. The rule is the evidence, and proposedBy
 * names it; no reason is repeated on a million rows.
 */
async function suggest(ledger: Ledger, orgSeq: number, rules: Compiled[], hits: Hits): Promise<void> {
  const mine = hits.rule.flatMap((r, at) => (rules[r].row.mode === 'suggest' ? [at] : []));
  if (mine.length === 0) return;
  const isDecided = await decidedChanges(ledger, orgSeq, mine.length);
  const insert = new BatchInsert(ledger, 'proposals', [
    ['id', 'text'],
    ['org_seq', 'bigint'],
    ['type', 'text'],
    ['status', 'text'],
    ['payload', 'text'],
    ['proposed_by', 'text'],
    ['created_at', 'text'],
    ['change_key', 'text'],
    ['rule_seq', 'bigint'],
  ]);
  const now = nowIso();
  // What every suggestion of a rule shares, written once per rule rather than per row.
  const shared = rules.map((rule) =>
    rule.category && !rule.shares
      ? {
          by: by(rule),
          tail: `","categoryCode":${JSON.stringify(rule.category.code)},"category":${JSON.stringify(rule.category.name)},"evidence":${rule.evidence}${rule.row.tax_code ? `,"taxCode":${JSON.stringify(rule.row.tax_code)}` : ''}}`,
        }
      : null,
  );
  const rowOf = ledger.stmt('SELECT amount_minor, currency FROM transactions WHERE seq = ?');
  // Each rule's suggestions before this batch: a bulk run's totals count this batch's alone.
  const suggestedBefore = rules.map((rule) => rule.suggested);
  const file = async () => {
    for (const at of mine) {
      const rule = rules[hits.rule[at]];
      const transactionId = hits.id[at];
      const payload = rule.shares ? splitPayload(rule, transactionId, (await rowOf.get(hits.seq[at])) as { amount_minor: number; currency: string }) : null;
      const changeKey = changeKeyOf(
        'categorization',
        payload ?? { transactionId, categoryCode: rule.category!.code, category: '', evidence: [], ...(rule.row.tax_code ? { taxCode: rule.row.tax_code } : {}) },
        hits.seq[at],
      );
      // Awaited only when it is a promise: a million set lookups need no turn of the event loop each.
      const decided = isDecided(changeKey);
      if (decided === true || (decided !== false && (await decided))) {
        rule.decided++;
        continue;
      }
      const json = payload ? JSON.stringify(payload) : `{"transactionId":"${transactionId}${shared[rule.index]!.tail}`;
      // Time-ordered ids: a million suggestions go to the end of the id index, not all over it.
      await insert.add(newTimeOrderedId(), orgSeq, 'categorization', 'pending', json, by(rule), now, changeKey, rule.row.seq);
      rule.suggested++;
    }
    await insert.flush();
  };
  if (mine.length < BULK_ROWS) await file();
  else
    await proposeInBulk(ledger, orgSeq, async () => {
      await file();
      return rules.map((rule) => ({ type: 'categorization', proposedBy: by(rule), n: rule.suggested - suggestedBefore[rule.index] }));
    });
}

/** A split rule's suggestion for a row: its shares of the row's amount, as a categorization with lines. */
function splitPayload(rule: Compiled, transactionId: string, row: { amount_minor: number; currency: string }) {
  const lines = ruleLines(rule, row.amount_minor).map((l) => {
    const category = rule.shares!.find((s) => s.category.seq === l.categorySeq)!.category;
    return { categoryCode: category.code, name: category.name, amount: fromMinor(-l.amountMinor, row.currency), memo: null };
  });
  const largest = lines.reduce((a, b) => (Math.abs(b.amount) > Math.abs(a.amount) ? b : a));
  const split = lines.length > 1 ? lines.map(({ categoryCode, amount, memo }) => ({ categoryCode, amount, memo })) : undefined;
  return { transactionId, categoryCode: largest.categoryCode, category: largest.name, evidence: JSON.parse(rule.evidence), lines: split };
}

/**
 * Whether a change is pending or was rejected: for a big run (and not too many
 * such changes) looked up in memory, else asked of the index row by row.
 */
async function decidedChanges(ledger: Ledger, orgSeq: number, rows: number): Promise<(changeKey: string) => boolean | Promise<boolean>> {
  if (rows >= BULK_ROWS) {
    const keys = (await ledger
      .stmt("SELECT change_key FROM proposals WHERE org_seq = ? AND type = 'categorization' AND status IN ('pending', 'rejected') LIMIT 200001")
      .pluck()
      .all(orgSeq)) as string[];
    if (keys.length <= 200_000) {
      const known = new Set(keys);
      return (key) => known.has(key);
    }
  }
  return async (key) => (await decidedChange(ledger, orgSeq, key)) !== undefined;
}

async function audit(ledger: Ledger, orgSeq: number, actor: Actor, rule: Compiled, occasion: string, now: string): Promise<void> {
  const took = rule.applied + rule.suggested;
  if (took === 0 || !rule.category) return;
  await ledger.stmt('UPDATE rules SET matched_count = matched_count + ?, last_run_at = ? WHERE seq = ?').run(took, now, rule.row.seq);
  const rows = `${took.toLocaleString('en')} uncategorized row${took === 1 ? '' : 's'}`;
  const target = rule.shares ? ruleTarget(rule.row) : `${rule.category.code} ${rule.category.name}`;
  await appendAudit(ledger, orgSeq, actor, {
    action: rule.row.mode === 'apply' ? 'rule.applied' : 'rule.suggested',
    targetType: 'rule',
    targetId: rule.row.id,
    summary:
      rule.row.mode === 'apply'
        ? `Rule ${rule.row.position} (${rule.described}) categorized ${rows} as ${target}, ${occasion}`
        : `Rule ${rule.row.position} (${rule.described}) suggested ${target} for ${rows} (pending in Approvals), ${occasion}`,
  });
}
