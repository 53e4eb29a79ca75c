// `npm run bench:mail`: issue 53's target, on a fresh folder each run
// (bench/.data-mail): a month's run of 1,000 repeating invoices set to
// "approve and send" (monthly, their days spread over January), the pass run
// once a day for the month as the app runs it: each invoice made, issued, its
// PDF made and sent with it to a local smtp-server (the tests' package; here
// without TLS or sign-in, the machine's own relay), recorded. Beside it, in
// the same run, the PDFs alone of the same invoices (the baseline). Target:
// the month's run under 60 s. Figures only: nothing here asserts a time.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import * as L from '../src/main/ledger';
import { documentPdf } from '../src/main/ledger/documents/pdf/pdf';
import { setMailSettings } from '../src/main/ledger/mail/settings';
import { runAndSendRepeatingInvoices } from '../src/main/mail/repeats';
import { ledgerFile } from '../src/main/paths';

const N = Number(process.env.BENCH_MAIL ?? 1000);
const base = join(import.meta.dirname, '.data-mail');
rmSync(base, { recursive: true, force: true });

let received = 0;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  // A local relay: no reverse DNS look-up of 127.0.0.1 (on a machine without a resolver it waits out a timeout).
  disableReverseLookup: true,
  logger: false,
  onData(stream, _session, callback) {
    stream.on('data', () => undefined);
    stream.on('end', () => (received++, callback(null, `OK: queued as B${received}`)));
  },
});
await new Promise<void>((resolve) => smtp.server.listen(0, '127.0.0.1', resolve));
const port = (smtp.server.address() as { port: number }).port;

const ledger = L.openLedger(ledgerFile(base));
const me = L.deskActor();
const org = await L.createOrganization(ledger, { slug: 'bench', name: 'Benchmark Ltd', currency: 'GBP' });
await L.setupTaxSet(ledger, org.seq, me, 'uk-vat');
await setMailSettings(ledger, org.seq, me, { host: '127.0.0.1', port, tls: 'none', from: 'Benchmark Ltd <books@bench.example>' });
await ledger.write(async () => {
  for (let c = 0; c < N; c++) {
    await L.addContact(ledger, org.seq, me, { name: `Customer ${c}`, customer: true, email: `customer${c}@bench.example`, termsDays: 30 });
    await L.createRepeatingInvoice(
      ledger,
      org.seq,
      me,
      {
        customer: `Customer ${c}`,
        lines: [
          { description: `Retainer ${c}`, quantity: 1, unitPrice: 500 + (c % 100), categoryCode: '4000', taxCode: 'S' },
          { description: 'Hosting', quantity: 1, unitPrice: 20, categoryCode: '4000', taxCode: 'S' },
        ],
        schedule: { unit: 'month', every: 1, start: `2026-01-${String(1 + (c % 28)).padStart(2, '0')}` },
        action: 'issue_and_send',
      },
      '2026-01-01',
    );
  }
});

// The month: the pass once a day, as the jobs runner runs it.
let t = performance.now();
let made = 0;
let sent = 0;
for (let day = 1; day <= 31; day++) {
  const run = await runAndSendRepeatingInvoices(ledger, org.seq, `2026-01-${String(day).padStart(2, '0')}`, me);
  made += run.made.length;
  sent += run.sent.length;
  if (run.notSent.length) throw new Error(`not sent: ${run.notSent[0].reason}`);
}
const month = (performance.now() - t) / 1000;

// The baseline: the same invoices' PDFs alone.
const rows = await ledger.rows<L.DocumentRow>("SELECT * FROM documents WHERE org_seq = ? AND kind = 'invoice' ORDER BY seq", org.seq);
t = performance.now();
for (const row of rows) await documentPdf(ledger, org.seq, row);
const pdfs = (performance.now() - t) / 1000;

console.log(`Repeating invoices, a month's run (${N} templates, "approve and send"): ${made} made, ${sent} sent, ${received} received by the SMTP server`);
console.log(`  the month's pass (made, issued, PDF, sent, recorded): ${month.toFixed(1)} s (${((month / Math.max(1, made)) * 1000).toFixed(1)} ms an invoice; target under 60 s)`);
console.log(`  the PDFs alone (baseline, same run): ${pdfs.toFixed(1)} s (${((pdfs / Math.max(1, rows.length)) * 1000).toFixed(1)} ms a PDF)`);
await new Promise<void>((resolve) => smtp.close(() => resolve()));
ledger.close();
