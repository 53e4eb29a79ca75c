// `npm run bench:invoices`: issue 29's targets, on a fresh folder each run
// (bench/.data-invoices): 100,000 invoices of 3 lines (UK VAT, 500
// customers, dates over two years in no order) issued from a CSV file as
// `invoice import` does (and 2,000 more one by one, each committed as the
// screens and commands do); then four in five paid by
// a bank row; the aging at a date over them (p50, p99) and an invoice's PDF
// (p50). Beside them, the bare SQLite insert of the same documents, lines and
// postings in the same run. Figures only: nothing here asserts a time.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import * as L from '../src/main/ledger';
import { ledgerFile } from '../src/main/paths';
import { percentiles } from './timing';

const N = Number(process.env.BENCH_INVOICES ?? 100_000);
const base = join(import.meta.dirname, '.data-invoices');
rmSync(base, { recursive: true, force: true });
const ledger = L.openLedger(ledgerFile(base));
const me = L.deskActor();
const org = await L.createOrganization(ledger, { slug: 'bench', name: 'Benchmark Ltd', currency: 'GBP' });
await L.setupTaxSet(ledger, org.seq, me, 'uk-vat');
await L.createAccount(ledger, org.seq, me, { name: 'Bank', type: 'checking' });
await ledger.write(async () => {
  for (let c = 0; c < 500; c++) await L.addContact(ledger, org.seq, me, { name: `Customer ${c}`, customer: true, termsDays: 30 });
});

// Dates over 2025-2026 in a shuffled order, as invoices are entered late and out of order.
let seed = 42;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
const dayOf = () => new Date(Date.UTC(2025, 0, 1) + Math.floor(random() * 700) * 86_400_000).toISOString().slice(0, 10);
const invoices = Array.from({ length: N }, (_, i) => ({
  contact: `Customer ${i % 500}`,
  date: dayOf(),
  lines: [
    { description: `Consulting ${i}`, quantity: 1 + (i % 7), unitPrice: 85, categoryCode: '4000', taxCode: 'S' },
    { description: 'Travel', quantity: 1, unitPrice: (i % 300) + 0.5, categoryCode: '4000', taxCode: 'Z' },
    { description: 'Licence', quantity: 2.5, unitPrice: 19.99, categoryCode: '4010', taxCode: 'S' },
  ],
}));

const rss = () => `${Math.round(process.memoryUsage().rss / 2 ** 20)} MB`;
// Issued from a CSV file of them, as `ledgerdesk invoice import` does (read, checked, written in one transaction),
// then a few more one by one (each committed alone, as the screens and `invoice create --issue` do).
const csv = [
  'customer,reference,date,description,quantity,unit price,category,tax code',
  ...invoices.flatMap((inv, i) => inv.lines.map((l) => [inv.contact, i, inv.date, l.description, l.quantity, l.unitPrice, l.categoryCode, l.taxCode].join(','))),
].join('\n');
let t = performance.now();
await L.createDocuments(ledger, org.seq, me, L.documentsFromCsv(csv, 'invoice'), { kind: 'invoice', issue: true });
const issued = (performance.now() - t) / 1000;
// The process's memory right after issuing (the later steps, the aging and the PDFs, grow it further).
const issuedRss = rss();
const ONE_BY_ONE = 2000;
t = performance.now();
for (const input of invoices.slice(0, ONE_BY_ONE)) await L.createDocument(ledger, org.seq, me, input, { kind: 'invoice', issue: true });
const each = (performance.now() - t) / ONE_BY_ONE;
const counts = ledger.sqlite.prepare('SELECT (SELECT count(*) FROM documents) AS d, (SELECT count(*) FROM document_lines) AS l, (SELECT count(*) FROM postings) AS p').get() as {
  d: number;
  l: number;
  p: number;
};

// The bare baseline: the same rows inserted by plain SQL in one transaction, no checks, no triggers.
const bare = L.openLedger(':memory:');
bare.sqlite.exec('CREATE TABLE d AS SELECT * FROM documents WHERE 0; CREATE TABLE l AS SELECT * FROM document_lines WHERE 0; CREATE TABLE p AS SELECT * FROM postings WHERE 0;');
t = performance.now();
bare.sqlite.transaction(() => {
  const insD = bare.sqlite.prepare(
    "INSERT INTO d (seq, id, org_seq, kind, state, contact_seq, number, issue_date, due_date, currency, net_minor, tax_minor, total_minor, created_at) VALUES (?, ?, 1, 'invoice', 'issued', 1, ?, ?, ?, 'GBP', 1, 1, 2, '')",
  );
  const insL = bare.sqlite.prepare(
    'INSERT INTO l (document_seq, position, description, quantity_milli, unit_price_minor, category_seq, net_minor, tax_minor) VALUES (?, ?, ?, 1000, 100, 1, 100, 20)',
  );
  const insP = bare.sqlite.prepare("INSERT INTO p (document_seq, org_seq, kind, date, currency, amount_minor) VALUES (?, 1, 'category', ?, 'GBP', 100)");
  invoices.forEach((inv, i) => {
    insD.run(i + 1, `id-${i}`, `INV-${i}`, inv.date, inv.date);
    for (let k = 0; k < 3; k++) insL.run(i + 1, k, inv.lines[k].description);
    for (let k = 0; k < counts.p / N; k++) insP.run(i + 1, inv.date);
  });
})();
const bareSeconds = (performance.now() - t) / 1000;

// Four in five paid, each by its own bank row, a month after it was issued (capped at the books' end).
t = performance.now();
const open = ledger.sqlite.prepare("SELECT number, issue_date, total_minor FROM documents WHERE kind = 'invoice' ORDER BY seq").all() as {
  number: string;
  issue_date: string;
  total_minor: number;
}[];
await ledger.write(async () => {
  for (const [i, d] of open.entries()) {
    if (i % 5 === 4) continue;
    const date = new Date(Date.parse(`${d.issue_date}T00:00:00Z`) + 20 * 86_400_000).toISOString().slice(0, 10);
    const row = await L.addTransaction(ledger, org.seq, me, { account: 'Bank', date, amount: d.total_minor / 100, description: `PAYMENT ${d.number}` });
    await L.payDocuments(ledger, org.seq, me, 'invoice', row.id, [{ document: d.number }]);
  }
});
const paying = (performance.now() - t) / 1000;

const time = (runs: number, fn: () => unknown) => percentiles(fn, runs, 5);
const aging = await time(50, () => L.aging(ledger, org.seq, 'receivables', '2026-06-30'));
const agingNow = await L.aging(ledger, org.seq, 'receivables', '2026-06-30');
const agingEnd = await time(50, () => L.aging(ledger, org.seq, 'receivables', '2026-12-31'));
const openAtEnd = (await L.aging(ledger, org.seq, 'receivables', '2026-12-31')).contacts.reduce((s, c) => s + c.documents.length, 0);
const doc = await L.requireDocument(ledger, org.seq, ['invoice'], 'INV-0042');
const samples: number[] = [];
for (let i = 0; i < 25; i++) {
  const s = performance.now();
  await L.documentPdf(ledger, org.seq, doc);
  samples.push(performance.now() - s);
}
samples.sort((a, b) => a - b);

console.log(`\nInvoices (${new Date().toISOString().slice(0, 10)}, ${N.toLocaleString('en')} invoices of 3 lines: ${counts.d} documents, ${counts.l} lines, ${counts.p} postings)`);
console.log('| what | figure | target |');
console.log('|---|---|---|');
console.log(
  `| issue ${N.toLocaleString('en')} invoices from a CSV file (invoice import: read, checked, one transaction) | ${issued.toFixed(1)} s (${issuedRss} after it; ${rss()} at the end) | 10 s |`,
);
console.log(`| one invoice created and issued in its own transaction (${ONE_BY_ONE} more) | ${each.toFixed(2)} ms each | - |`);
console.log(`| bare SQLite insert of the same rows (one transaction) | ${bareSeconds.toFixed(1)} s | - |`);
console.log(`| pay four in five from their own bank rows | ${paying.toFixed(1)} s | - |`);
console.log(
  `| aging at a date (${agingNow.contacts.length} contacts, ${agingNow.contacts.reduce((s, c) => s + c.documents.length, 0)} open) | ${aging.p50.toFixed(2)} ms p50, ${aging.p99.toFixed(2)} ms p99 | 50 ms |`,
);
console.log(`| aging at the books' end (${openAtEnd} open) | ${agingEnd.p50.toFixed(2)} ms p50, ${agingEnd.p99.toFixed(2)} ms p99 | 50 ms |`);
console.log(`| an invoice's PDF | ${samples[12].toFixed(1)} ms p50 | 100 ms |`);
