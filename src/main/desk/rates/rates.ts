// Exchange rates at the desk and as owner commands (issue 30): `ledgerdesk
// rate set <currency> <date> <rate>`, `rate import <file> [--format ecb|plain]`,
// `rate list [--currency <c>] [--offset <n>] [--json]`.
import { ACCOUNTANTS, KEEPERS, STAFF } from '../roles';
import * as z from 'zod';
import { DateString, Line } from '../../api/fields';
import * as L from '../../ledger';
import { fileDone, openFile, textOf } from '../files';
import { op, Org, orgSeq, Page, pageLine } from '../operation';

const Currency = Line(3).trim().min(3).describe('ISO 4217 code, such as EUR');

const written = (r: L.RatesWritten) =>
  `${r.added} rate(s) added, ${r.changed} changed, ${r.unchanged} already so${r.currencies.length ? ` (${r.currencies.join(', ')}; ${r.from} to ${r.to})` : ''}.`;

export const rateOperations = {
  listRates: op(
    STAFF,
    z.strictObject({ ...Org, currency: Currency.optional(), from: DateString.optional(), to: DateString.optional(), ...Page(1000) }),
    // With the page it is (offset, limit): the command's last line says where it sits in the whole.
    async (ctx, { orgId, ...q }) => ({ ...(await L.listRates(ctx.ledger, await orgSeq(ctx, orgId), q)), offset: q.offset, limit: q.limit }),
    {
      name: 'rate list',
      summary: 'exchange rates by day (one unit of the currency in the base currency), newest first',
      flags: { from: 'from', to: 'to' },
      print: (r) =>
        r.total
          ? [
              ...(r.rates.length ? [`Rates in ${r.base}:`] : []),
              ...r.rates.map((x) => `${x.date}  ${x.currency}  ${x.rate.padStart(16)}  ${x.source}`),
              pageLine({ offset: r.offset, shown: r.rates.length, total: r.total }, 'rate'),
            ]
          : [`No rates${r.currencies.length ? ' match' : ` yet: set one (ledgerdesk rate set EUR 2026-01-31 1.0856) or import a file`}.`],
    },
  ),

  setRate: op(
    KEEPERS,
    z.strictObject({ ...Org, currency: Currency, date: DateString, rate: Line(40).trim().min(1).describe('One unit of the currency in the base currency, such as 1.0856') }),
    async (ctx, { orgId, ...input }) => L.setRate(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, input),
    {
      name: 'rate set',
      summary: 'set the rate of a currency on a day (1 unit of it in the base currency)',
      args: ['currency', 'date', 'rate'],
      print: (r) => [`${r.currency} on ${r.date}: ${r.rate}.`],
    },
  ),

  importRates: op(
    KEEPERS,
    z.strictObject({
      ...Org,
      file: z.string().min(1).max(4096).describe("The CSV: a path (owner command) or an uploaded file's id (app)"),
      format: z.enum(L.RATE_FORMATS).optional().describe("ecb (the ECB's reference rates as published) or plain (date,currency,rate); default: by the header"),
    }),
    async (ctx, { orgId, file, format }) => {
      const seq = await orgSeq(ctx, orgId);
      const source = await openFile(ctx, seq, file);
      const result = await L.importRates(ctx.ledger, seq, ctx.reviewer, await textOf(source), { format, name: source.name });
      await fileDone(ctx, seq, file);
      return result;
    },
    {
      name: 'rate import',
      summary: "import rates from the ECB's reference-rate CSV or a date,currency,rate file; all or none",
      args: ['file'],
      print: (r) => [`Read ${r.read} rate(s) (${r.format}): ${written(r)}`, ...(r.skipped.length ? [`Left out (no longer in use): ${r.skipped.join(', ')}.`] : [])],
    },
  ),

  revalue: op(
    ACCOUNTANTS,
    z.strictObject({ ...Org, date: DateString.describe('The day whose rates value them (a quarter end)') }),
    async (ctx, { orgId, date }) => L.revalue(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, date),
    {
      name: 'fx revalue',
      summary: "value foreign money accounts and what is owed in other currencies at a date's rates; the difference to unrealized gains and losses, reversed the next day",
      print: (r) =>
        r.id
          ? [
              ...r.items.map(
                (i) => `${i.name.padEnd(24)} ${i.balance.toFixed(2).padStart(14)} ${i.currency} at ${i.rate}: ${i.booked.toFixed(2)} -> ${i.revalued.toFixed(2)} ${r.currency}`,
              ),
              `Unrealized ${r.gain >= 0 ? 'gain' : 'loss'} ${Math.abs(r.gain).toFixed(2)} ${r.currency} on ${r.date}, reversed the next day.`,
            ]
          : [`Nothing to revalue on ${r.date}: every balance in another currency is at that day's rate.`],
    },
  ),

  undoRevaluation: op(
    ACCOUNTANTS,
    z.strictObject({ ...Org, date: DateString }),
    async (ctx, { orgId, date }) => L.undoRevaluation(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, date),
    {
      name: 'fx undo',
      summary: "take a date's revaluation and its reversal out of the books",
      print: (r) => [`The revaluation of ${r.date} is undone.`],
    },
  ),
};
