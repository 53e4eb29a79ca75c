// Tax codes at the desk and as owner commands (`ledgerdesk tax setup`, `tax
// code add|list|rate|archive`, `category tax`): issue 28's first part. The codes
// themselves (their rates, kinds and return boxes) are an accountant's, as the
// tax settings are (issue 50); a category's default code is a bookkeeper's.
import { ACCOUNTANTS, ANYONE, KEEPERS, STAFF } from '../roles';
import * as z from 'zod';
import { DateString, Line, Prose, Uuid } from '../../api/fields';
import * as L from '../../ledger';
import { op, Org, orgSeq, pageLine } from '../operation';
import { filedWords } from '../../../shared/words';

const Percent = z.union([z.number().min(0).max(100), Line(12).trim().min(1)]).describe('A percent, up to four decimals (20, 5.5, 0.0125)');
const Code = Line(20).trim().min(1).describe('The tax code (S, R, Z, GST...)');
const Box = z.strictObject({ box: Line(10).trim().min(1), side: z.enum(['sales', 'purchases']), measure: z.enum(['net', 'tax', 'gross']) });
const line = (c: L.TaxCode) =>
  `${c.code.padEnd(6)} ${`${c.rate}%`.padStart(9)}  ${c.kind.padEnd(15)} ${c.applies.padEnd(9)} ${c.name}${c.boxes.length ? `  boxes ${c.boxes.map((b) => `${b.box}:${b.side}/${b.measure}`).join(' ')}` : ''}${c.rates.length > 1 ? `  (rates: ${c.rates.map((r) => `${r.rate}% from ${r.from}`).join(', ')})` : ''}${c.archived ? '  (archived)' : ''}`;

export const taxOperations = {
  setupTax: op(
    ACCOUNTANTS,
    z.strictObject({ ...Org, set: z.enum(L.TAX_SET_NAMES as [string, ...string[]]).describe(`The ready-made set: ${L.TAX_SET_NAMES.join(', ')}`) }),
    async (ctx, { orgId, set }) => L.setupTaxSet(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, set),
    {
      name: 'tax setup',
      summary: 'set the organization up with ready-made tax codes: uk-vat, au-gst or plain (codes it has stay)',
      args: ['set'],
      print: (r) => [`Tax set up as ${L.TAX_SETS[r.set].name}: ${r.added.length ? `added ${r.added.join(', ')}` : 'every code was already there'}.`, ...r.codes.map(line)],
    },
  ),

  listTaxCodes: op(STAFF, z.strictObject(Org), async (ctx, { orgId }) => L.listTaxCodes(ctx.ledger, await orgSeq(ctx, orgId)), {
    name: 'tax code list',
    summary: 'the tax codes with their rate today, kind, side and return boxes',
    print: (codes) => (codes.length ? codes.map(line) : ['No tax codes yet: ledgerdesk tax setup uk-vat|au-gst|plain, or tax code add.']),
  }),

  addTaxCode: op(
    ACCOUNTANTS,
    z.strictObject({
      ...Org,
      code: Code,
      name: Line(200).trim().min(1).optional(),
      rate: Percent,
      kind: z.enum(L.TAX_KINDS).describe(L.TAX_KINDS.join(', ')),
      applies: z.enum(L.TAX_APPLIES).default('both').describe('sales, purchases or both'),
      from: DateString.optional().describe('The first day of the rate (default: always)'),
      boxes: z.array(Box).max(20).optional().describe('The return boxes it feeds: [{"box":"6","side":"sales","measure":"net"}, ...]'),
      recoverablePercent: z.number().min(0).max(100).optional().describe('The share of input tax that may be reclaimed (default 100)'),
    }),
    async (ctx, { orgId, ...input }) => L.addTaxCode(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, input),
    { name: 'tax code add', summary: 'add a tax code (its rate, kind, side and boxes)', args: ['code'], print: (c) => [`Added ${line(c)}`] },
  ),

  setTaxRate: op(
    ACCOUNTANTS,
    z.strictObject({ ...Org, code: Code, from: DateString.describe('The first day of the new rate'), rate: Percent }),
    async (ctx, { orgId, code, from, rate }) => L.setTaxRate(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, code, from, rate),
    { name: 'tax code rate', summary: "a tax code's new rate from a date on (earlier lines keep theirs)", args: ['code'], print: (c) => [`Now ${line(c)}`] },
  ),

  archiveTaxCode: op(
    ACCOUNTANTS,
    z.strictObject({ ...Org, code: Code }),
    async (ctx, { orgId, code }) => L.archiveTaxCode(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, code),
    {
      name: 'tax code archive',
      summary: 'no longer offer a tax code (kept for the lines that have it)',
      args: ['code'],
      print: (c) => [`Archived ${line(c)}`],
    },
  ),

  setCategoryTax: op(
    KEEPERS,
    z.strictObject({ ...Org, categoryCode: Line(50).trim().min(1), taxCode: Line(20).trim().nullable().describe('The default tax code; empty: none') }),
    async (ctx, { orgId, categoryCode, taxCode }) => L.setCategoryTax(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, categoryCode, taxCode || null),
    {
      name: 'category tax',
      summary: "a category's default tax code (its lines take it when none is named)",
      args: ['categoryCode', 'taxCode'],
      print: (r) => [`${r.categoryCode}: default tax code ${r.taxCode ?? 'none'}.`],
    },
  ),
};

const figure = (n: number) => n.toFixed(2).padStart(14);

/** A correction's adjustment as one line: the row, the return it corrects, the differences. */
const correctionLine = (c: L.TaxCorrectionLine) =>
  `  ${c.date}  ${c.code.padEnd(6)} ${c.side.padEnd(9)}${figure(c.net)}${figure(c.tax)}  ${c.description}${c.deleted ? ' (deleted)' : ''}  [${c.transactionId}]  corrects ${c.taxReturn.from} to ${c.taxReturn.to} (filed ${c.taxReturn.filedAt.slice(0, 10)})`;

/** How many corrections of earlier returns a return includes, as a list says it ("" for none). */
export const correctionCount = (r: L.TaxReturn): string => {
  const n = new Set(r.corrections.map((c) => c.correctionId)).size;
  return n ? `, ${n} correction(s) of earlier returns` : '';
};

/** The threshold flag, when the corrections exceed it. */
export const thresholdWords = (t: L.CorrectionThresholdCheck | null, currency: string): string | null =>
  t?.exceeded ? `${t.message} (net value ${t.netValue.toFixed(2)}, threshold ${t.limit.toFixed(2)} ${currency}).` : null;

export function printTaxReturn(r: L.TaxReturn): string[] {
  const flag = thresholdWords(r.correctionThreshold, r.currency);
  return [
    `Tax return, ${r.from} to ${r.to}, ${r.currency} (${r.basis} basis${r.set ? `, ${L.TAX_SETS[r.set].name}` : ''})`,
    ...(r.filed ? [filedWords(r.filed)] : []),
    ...Object.entries(r.boxes).map(([box, amount]) => `  Box ${box.padEnd(4)}${figure(amount)}  ${r.boxTitles[box] ?? ''}`),
    `${'code'.padEnd(8)}${'rate'.padStart(9)}${'net sales'.padStart(14)}${'tax sales'.padStart(14)}${'net purchases'.padStart(14)}${'tax purchases'.padStart(14)}`,
    ...r.codes.map((c) => `${c.code.padEnd(8)}${`${c.rate}%`.padStart(9)}${figure(c.netSales)}${figure(c.taxSales)}${figure(c.netPurchases)}${figure(c.taxPurchases)}`),
    ...(r.corrections.length ? ['Corrections of earlier returns (in the figures above): date, code, side, net, tax', ...r.corrections.map(correctionLine)] : []),
    ...(flag ? [flag] : []),
    `Payable: ${r.payable.toFixed(2)} ${r.currency}${r.payable < 0 ? ' (due back)' : ''}`,
    ...(r.warnings ?? []).map((w) => `Warning: ${w.message}`),
    ...(r.fileFrom ? [`The period has not ended: it can be filed from ${r.fileFrom}.`] : []),
  ];
}

export function taxReturnCsv(r: L.TaxReturn): string {
  const rows = [
    ['kind', 'box or code', 'title', 'rate', 'net sales', 'tax sales', 'net purchases', 'tax purchases', 'amount'],
    ...Object.entries(r.boxes).map(([box, amount]) => ['box', box, r.boxTitles[box] ?? '', '', '', '', '', '', String(amount)]),
    ...r.codes.map((c) => ['code', c.code, c.name, String(c.rate), String(c.netSales), String(c.taxSales), String(c.netPurchases), String(c.taxPurchases), '']),
    // A correction's differences, on its side's columns; its title names the row and the return it corrects.
    ...r.corrections.map((c) => {
      const title = `${c.date} ${c.description} [${c.transactionId}], corrects ${c.taxReturn.from} to ${c.taxReturn.to} (${c.taxReturn.id})`;
      const [net, tax] = [String(c.net), String(c.tax)];
      return ['correction', c.code, title, '', ...(c.side === 'sales' ? [net, tax, '', ''] : ['', '', net, tax]), ''];
    }),
    ['payable', '', '', '', '', '', '', '', String(r.payable)],
  ];
  return rows.map((cells) => cells.map((c) => (/[",\r\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',')).join('\r\n') + '\r\n';
}

export const taxReportOperations = {
  taxSettings: op(
    ACCOUNTANTS,
    z.strictObject({
      ...Org,
      period: z.enum(L.TAX_PERIODS).optional().describe('monthly or quarterly'),
      startMonth: z.int().min(1).max(12).optional().describe('The month (1-12) the periods count from (a quarter from April: 4)'),
      basis: z.enum(L.TAX_BASES).optional().describe('cash or accrual'),
    }),
    async (ctx, { orgId, ...changes }) => {
      const seq = await orgSeq(ctx, orgId);
      const settings = Object.values(changes).some((v) => v !== undefined)
        ? await L.updateTaxSettings(ctx.ledger, seq, ctx.reviewer, changes)
        : await L.taxSettings(ctx.ledger, seq);
      return { ...settings, current: await L.currentTaxPeriod(ctx.ledger, seq) };
    },
    {
      name: 'tax settings',
      summary: 'how often the return is filed (monthly or quarterly, from a start month) and its basis',
      print: (s) => [`Returns ${s.period} from month ${s.startMonth}, ${s.basis} basis; the period to file next: ${s.current.from} to ${s.current.to}.`],
    },
  ),

  taxReport: op(
    ANYONE,
    z.strictObject({
      ...Org,
      from: DateString.optional().describe('First day of the period (default: the period to file next)'),
      to: DateString.optional().describe('Last day of the period'),
      basis: z.enum(['cash', 'accrual']).optional().describe("cash or accrual (default: the organization's; equal until invoices and bills exist)"),
    }),
    async (ctx, { orgId, from, to, basis }) => {
      const seq = await orgSeq(ctx, orgId);
      const settings = await L.taxSettings(ctx.ledger, seq);
      // No dates: the period to file next; a first day alone: its period.
      const period = from ? { from, to: to ?? L.periodOf(settings, from).to } : to ? { ...L.periodOf(settings, to), to } : await L.currentTaxPeriod(ctx.ledger, seq);
      // A filed period is what was filed (unless another basis is asked): the original stays as filed.
      const filed = basis && basis !== settings.basis ? null : await L.filedView(ctx.ledger, seq, period);
      return filed ?? (await L.taxReturn(ctx.ledger, seq, { ...period, basis: basis ?? settings.basis }));
    },
    { name: 'report tax', summary: 'the tax return of a period: the boxes of the set, the per-code summary, what is payable', print: printTaxReturn, csv: taxReturnCsv },
  ),

  fileTaxReturn: op(
    ACCOUNTANTS,
    z.strictObject({
      ...Org,
      from: DateString.describe('First day of the period'),
      to: DateString.describe('Last day of the period'),
      basis: z.enum(['cash', 'accrual']).optional().describe("cash or accrual (default: the organization's, as the return shown)"),
      confirmCorrections: z.boolean().optional().describe("Its corrections of earlier returns exceed the tax office's threshold: file them in this return all the same"),
    }),
    async (ctx, { orgId, ...period }) => L.fileTaxReturn(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, period),
    {
      name: 'tax return file',
      summary: 'file the return of a period: what was filed is kept, its lines and corrections no longer change',
      print: (r) => [`Filed the return for ${r.from} to ${r.to}: ${r.lineCount} line(s), payable ${r.payable.toFixed(2)} (${r.id}).`, ...printTaxReturn(r.report)],
    },
  ),

  unfileTaxReturn: op(
    ACCOUNTANTS,
    z.strictObject({
      ...Org,
      returnId: Uuid.describe('The filed return (tax return list)'),
      reason: Prose(500).trim().min(1, 'is required: say why the filing is undone').describe('Why the filing is undone, for the Log'),
    }),
    async (ctx, { orgId, returnId, reason }) => L.unfileTaxReturn(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, returnId, reason),
    {
      name: 'tax return unfile',
      summary: 'undo a filing recorded by mistake: the latest return, unpaid and not submitted, with the reason (--reason)',
      args: ['returnId'],
      print: (r) => [
        `Undid the filing of the return for ${r.from} to ${r.to}: it is open again and can be filed once its period has ended.${r.correctionsReopened ? ` ${r.correctionsReopened} correction(s) of earlier returns it included are open again.` : ''}${r.correctionsDropped ? ` ${r.correctionsDropped} correction(s) made of it are dropped: their rows are in its return as they are.` : ''}`,
      ],
    },
  ),

  taxPaymentCandidates: op(STAFF, z.strictObject(Org), async (ctx, { orgId }) => L.taxPaymentCandidates(ctx.ledger, await orgSeq(ctx, orgId)), {
    name: 'tax return payments',
    summary: "bank rows that may pay a filed return (its payable exactly, after the period's end)",
    print: (cs) =>
      cs.length
        ? cs.map((c) => `${c.from} to ${c.to} (payable ${c.payable.toFixed(2)}):  ${c.date}  ${c.description}  ledgerdesk tax return pay ${c.returnId} ${c.transactionId}`)
        : ['No bank row waits to pay a filed return.'],
  }),

  payTaxReturn: op(
    KEEPERS,
    z.strictObject({ ...Org, returnId: Uuid.describe('The filed return'), transactionId: Uuid.describe('The bank row that paid it') }),
    async (ctx, { orgId, returnId, transactionId }) => L.payTaxReturn(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, returnId, transactionId),
    {
      name: 'tax return pay',
      summary: 'match the bank row that paid a filed return (its line settles the tax control account)',
      args: ['returnId', 'transactionId'],
      print: (r) => [`The return for ${r.from} to ${r.to} is paid by ${r.paymentId}.`],
    },
  ),

  listTaxReturns: op(STAFF, z.strictObject(Org), async (ctx, { orgId }) => L.listTaxReturns(ctx.ledger, await orgSeq(ctx, orgId)), {
    name: 'tax return list',
    summary: 'the filed returns, newest first',
    print: (rs) =>
      rs.length
        ? rs.map(
            (r) =>
              `${r.from} to ${r.to}  payable ${r.payable.toFixed(2).padStart(12)}  ${r.lineCount} line(s)${correctionCount(r.report)}  filed ${r.filedAt.slice(0, 10)} by ${r.filedBy}  ${r.paymentId ? `paid by ${r.paymentId}` : 'unpaid'}  ${r.id}`,
          )
        : ['No return filed yet.'],
  }),
};

export const taxAuditOperations = {
  taxAudit: op(
    STAFF,
    z.strictObject({
      ...Org,
      from: DateString,
      to: DateString,
      box: Line(10).trim().min(1).optional().describe('Only the lines behind this box'),
      code: Line(20).trim().min(1).optional().describe('Only the lines of this tax code'),
      basis: z.enum(['cash', 'accrual']).optional().describe("cash or accrual: when invoices' and bills' lines count (default: the organization's)"),
      limit: z.int().min(1).max(500).default(100),
      offset: z.int().min(0).default(0),
    }),
    async (ctx, { orgId, basis, ...q }) => {
      const seq = await orgSeq(ctx, orgId);
      return L.taxAudit(ctx.ledger, seq, { ...q, basis: basis ?? (await L.taxSettings(ctx.ledger, seq)).basis });
    },
    {
      name: 'report tax-audit',
      summary: 'the lines behind a return (or one box, or one code): the tax audit report',
      print: (r) => [
        ...r.data.map(
          (l) =>
            `${l.date}  ${l.code.padEnd(6)} ${l.side.padEnd(9)} ${l.net.toFixed(2).padStart(12)} ${l.tax.toFixed(2).padStart(10)}  ${l.description}${l.late ? '  (late)' : ''}${l.correction ? `  (correction of ${l.correction.taxReturn.from} to ${l.correction.taxReturn.to}, ${l.transactionId})` : ''}`,
        ),
        pageLine({ offset: r.meta.offset, shown: r.data.length, total: r.meta.totalCount }, 'line'),
      ],
    },
  ),
};
