// Transfers between the organization's own accounts and the closing date, at
// the desk and as owner commands (`ledgerdesk transfer <id> --account`,
// `transfer match|suggest|undo`, `period lock|unlock`).
import { ACCOUNTANTS, KEEPERS, STAFF } from '../roles';
import * as z from 'zod';
import { DateString, Line, Prose, Uuid } from '../../api/fields';
import * as L from '../../ledger';
import { op, Org, orgSeq, pageLine } from '../operation';

const side = (s: L.TransferSide) =>
  `${s.id}  ${s.date}  ${s.amount.toFixed(2).padStart(12)} ${s.currency}  ${s.account.name}  ${s.description}${s.inTransit ? '  (in transit)' : ''}`;
const made = (r: L.TransferResult) =>
  r.counterpartId
    ? [`Transfer ${r.id} matched with its other side ${r.counterpartId}.`]
    : [
        `Transfer ${r.id} is in transit until the other account's row arrives${r.candidates > 1 ? ` (${r.candidates} rows could be it: ledgerdesk transfer suggest, then transfer match)` : ''}.`,
      ];

export const transferOperations = {
  makeTransfer: op(
    KEEPERS,
    z.strictObject({ ...Org, id: Uuid, account: Line(200).trim().min(1).describe('The other account of the organization, by name or id') }),
    async (ctx, { orgId, id, account }) => L.makeTransfer(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, id, account),
    { name: 'transfer', summary: 'make a row a transfer to another of your accounts (matched with its other side, or in transit)', args: ['id'], print: made },
  ),

  matchTransfer: op(
    KEEPERS,
    z.strictObject({ ...Org, id: Uuid.describe('One side'), other: Uuid.describe('The other side (opposite amount, another account)') }),
    async (ctx, { orgId, id, other }) => L.matchTransfer(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, id, other),
    { name: 'transfer match', summary: 'match two rows as the two sides of one transfer', args: ['id', 'other'], print: made },
  ),

  suggestTransfers: op(
    STAFF,
    z.strictObject({ ...Org, dateFrom: DateString.optional(), dateTo: DateString.optional(), limit: z.int().min(1).max(500).default(100) }),
    async (ctx, { orgId, dateFrom, dateTo, limit }) => L.suggestTransfers(ctx.ledger, await orgSeq(ctx, orgId), { from: dateFrom, to: dateTo, limit }),
    {
      name: 'transfer suggest',
      summary: 'possible transfers: open rows of opposite amounts in two accounts, a few days apart',
      flags: { dateFrom: 'from', dateTo: 'to' },
      print: ({ data, totalCount }) =>
        totalCount === 0
          ? ['No possible transfers.']
          : [
              ...data.flatMap((p) => [
                `${p.daysApart} day(s) apart${p.unique ? '' : ' (either side has other candidates)'}:  ledgerdesk transfer match ${p.from.id} ${p.to.id}`,
                `  out ${side(p.from)}`,
                `  in  ${side(p.to)}`,
              ]),
              pageLine({ shown: data.length, total: totalCount }, 'possible transfer', data.length < 500 ? '--limit 500' : 'a shorter --from/--to'),
            ],
    },
  ),

  undoTransfer: op(KEEPERS, z.strictObject({ ...Org, id: Uuid }), async (ctx, { orgId, id }) => L.undoTransfer(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, id), {
    name: 'transfer undo',
    summary: 'a transfer is no longer one: its side (and its other side) uncategorized again',
    args: ['id'],
    print: (r) => [`No longer a transfer: ${r.id}${r.counterpartId ? ` and ${r.counterpartId}` : ''} (uncategorized again).`],
  }),

  lockPeriod: op(
    ACCOUNTANTS,
    z.strictObject({
      ...Org,
      through: DateString.describe('The closing date: nothing on or before it changes'),
      reason: Prose(500).trim().optional().describe('Why, for the Log'),
      revalue: z.boolean().optional().describe("Revalue other currencies at the closing date's rates first (fx revalue), in the same step"),
    }),
    async (ctx, { orgId, through, reason, revalue }) => {
      const seq = await orgSeq(ctx, orgId);
      // Both or neither: the revaluation dated the closing date (its reversal the day after, still open), then the lock.
      return ctx.ledger.write(async () => {
        const revalued = revalue ? await L.revalue(ctx.ledger, seq, ctx.reviewer, through) : null;
        return { lockedThrough: await L.lockPeriod(ctx.ledger, seq, ctx.reviewer, through, reason), revalued };
      });
    },
    {
      name: 'period lock',
      summary: 'close the books through a date (nothing dated on or before it changes); --revalue: unrealized exchange gains first',
      print: (r) => [
        ...(r.revalued
          ? [`Revalued on ${r.lockedThrough}: unrealized ${r.revalued.gain >= 0 ? 'gain' : 'loss'} ${Math.abs(r.revalued.gain).toFixed(2)} ${r.revalued.currency}.`]
          : []),
        `Books closed through ${r.lockedThrough}.`,
      ],
    },
  ),

  unlockPeriod: op(
    ACCOUNTANTS,
    z.strictObject({ ...Org, reason: Prose(500).trim().optional().describe('Why, for the Log') }),
    async (ctx, { orgId, reason }) => ({ lockedThrough: await L.unlockPeriod(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, reason) }),
    { name: 'period unlock', summary: 'open the closed period again (audited)', print: () => ['Books open: no closing date.'] },
  ),
};
