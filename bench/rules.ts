// `npm run bench` (fifth part): 200 categorization rules run over 1,000,000
// uncategorized rows, once suggesting (a pending proposal per matched row) and
// once applying (each matched row categorized), each on a fresh copy of the
// same books. Prints the time of the run (matching and writing, one
// transaction) and the process's peak RSS, beside a bare SQLite write of the same
// rows (the baseline, same run). Figures only: nothing asserts a time.
//
// The 200 rules are ordered to make matching work: 100 texts that match
// nothing come first (every row is searched for each), then a shape rule for
// every description the demo books use, then 26 vendor texts.
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createOrganization, createRule, deskActor, findOrganization, openLedger, runRules, type RuleMode } from '../src/main/ledger';
import { ledgerFile } from '../src/main/paths';
import { fillDemo } from '../src/main/demo';

const N = Number(process.env.BENCH_TRANSACTIONS ?? 1_000_000);
const base = join(import.meta.dirname, '.data-rules');
const work = join(import.meta.dirname, '.data-rules-run');
const VENDORS = [
  'aws',
  'figma',
  'google',
  'stripe',
  'wework',
  'rent',
  'uber',
  'lufthansa',
  'hotel',
  'upwork',
  'contractor',
  'legal',
  'accounting',
  'github',
  'slack',
  'notion',
  'hetzner',
  'digitalocean',
  'acme',
  'globex',
  'initech',
  'invoice',
  'payout',
  'transfer',
  'cloud',
  'office',
];

async function prepare(): Promise<void> {
  const ledger = openLedger(ledgerFile(base));
  if (!(await findOrganization(ledger, 'bench'))) {
    const org = await createOrganization(ledger, { slug: 'bench', name: 'Benchmark Ltd' });
    console.log(`Preparing ${N.toLocaleString('en')} uncategorized demo rows in ${base} (once) ...`);
    await fillDemo(ledger, org.seq, org.slug, N, org.currency);
    // Every row uncategorized again: its one line the suspense line (the demo books have no splits or transfers by default).
    await ledger.write(() => {
      ledger.sqlite.prepare("UPDATE lines SET kind = 'suspense', category_seq = NULL WHERE org_seq = ? AND kind = 'category'").run(org.seq);
      ledger.sqlite.prepare("UPDATE transactions SET category_seq = NULL, status = 'uncategorized', suggested_by = NULL WHERE org_seq = ?").run(org.seq);
    });
  }
  ledger.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  ledger.close();
}

async function run(mode: RuleMode): Promise<string> {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  copyFileSync(ledgerFile(base), ledgerFile(work));
  const ledger = openLedger(ledgerFile(work));
  const org = (await findOrganization(ledger, 'bench'))!;
  const actor = deskActor();
  const shapes = ledger.sqlite.prepare('SELECT shape FROM description_shapes WHERE org_seq = ? AND n > 0 ORDER BY n DESC').pluck().all(org.seq) as string[];
  const code = (text: string) => (/stripe|invoice|payout|transfer|acme|globex|initech|wire|customer/i.test(text) ? '4000' : '5000');
  const rules = [
    ...Array.from({ length: 100 }, (_, i) => ({ matchKind: 'contains' as const, matchText: `no such vendor ${i}`, categoryCode: '5000' })),
    ...shapes.slice(0, 74).map((shape) => ({ matchKind: 'shape' as const, matchText: shape, categoryCode: code(shape) })),
    ...VENDORS.map((v) => ({ matchKind: 'contains' as const, matchText: v, categoryCode: code(v) })),
  ].slice(0, 200);
  while (rules.length < 200) rules.push({ matchKind: 'contains', matchText: `filler ${rules.length}`, categoryCode: '5000' });
  for (const rule of rules) await createRule(ledger, org.seq, actor, { ...rule, mode });
  const started = performance.now();
  const result = await runRules(ledger, org.seq, actor);
  const seconds = (performance.now() - started) / 1000;
  ledger.close();
  rmSync(work, { recursive: true, force: true });
  const took = mode === 'apply' ? `${result.applied.toLocaleString('en')} categorized` : `${result.suggested.toLocaleString('en')} proposals filed`;
  return `| ${rules.length} rules, ${mode} | ${result.rows.toLocaleString('en')} | ${took} | ${seconds.toFixed(1)} s | 10 s |`;
}

/**
 * The baseline, in the same run: SQLite alone writing what an apply run writes, on a fresh copy with its triggers
 * dropped: every suspense line and uncategorized row set to one category in two statements, one transaction.
 */
function bare(): string {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  copyFileSync(ledgerFile(base), ledgerFile(work));
  const db = new Database(ledgerFile(work));
  for (const name of db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'").pluck().all() as string[]) db.exec(`DROP TRIGGER ${name}`);
  const category = db.prepare("SELECT seq FROM categories WHERE code = '5000'").pluck().get();
  const started = performance.now();
  const rows = db.transaction(() => {
    db.prepare("UPDATE lines SET kind = 'category', category_seq = ? WHERE kind = 'suspense'").run(category);
    return db.prepare("UPDATE transactions SET category_seq = ?, status = 'categorized' WHERE status = 'uncategorized'").run(category).changes;
  })();
  const seconds = (performance.now() - started) / 1000;
  db.close();
  rmSync(work, { recursive: true, force: true });
  return `| bare SQLite: the same rows and lines set to one category, no matching, no triggers (baseline) | ${rows.toLocaleString('en')} | ${rows.toLocaleString('en')} categorized | ${seconds.toFixed(1)} s | |`;
}

if (!existsSync(base)) mkdirSync(base, { recursive: true });
await prepare();
const lines = [await run('apply'), await run('suggest'), bare()];
console.log(
  `\nRules over ${N.toLocaleString('en')} uncategorized rows (matching and writing, one transaction; peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB):\n`,
);
console.log('| run | rows read | result | time | target |\n|---|---:|---:|---:|---:|');
console.log(lines.join('\n'));
