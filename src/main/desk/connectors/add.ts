// Connecting Stripe (issue 52) with a restricted key (pasted, or piped to
// `--key-stdin`), then the one addConnector. SimpleFIN's add is in
// connectors.ts, Enable Banking's (a bank's sign-in) in bank.ts.
import * as z from 'zod';
import { Line } from '../../api/fields';
import * as L from '../../ledger';
import { addConnector } from '../../connectors/connect';
import { answeringFor } from '../../connectors/outcome';
import { op, Org, orgSeq } from '../operation';
import { KEEPERS } from '../roles';
import { connectorLines, secretFrom } from './connectors';

const Name = (fallback: string) =>
  Line(100).trim().min(1).default(fallback).describe('A name of your choice; an existing connector of that name is reconnected (its history kept)');
const Account = Line(100).trim().min(1).describe('The ledger account a provider reporting one account feeds (by name or id)');

export const connectorAddOperations = {
  addStripeConnector: op(
    KEEPERS,
    z.strictObject({
      ...Org,
      name: Name('Stripe'),
      key: Line(300).trim().min(1).optional().describe('A restricted Stripe key (rk_...) with read access to the balance (a window pastes it)'),
      keyStdin: z.boolean().optional().describe('Read the key from standard input'),
      account: Account.optional(),
    }),
    async (ctx, { orgId, name, key, keyStdin, account }) => {
      const secret = secretFrom(ctx, 'key', key, keyStdin);
      if (!/^(rk|sk)_(test|live)_[A-Za-z0-9]+$/.test(secret)) throw L.invalid([{ field: 'key', message: 'is not a Stripe secret or restricted key (rk_live_... or rk_test_...)' }]);
      const seq = await orgSeq(ctx, orgId);
      return answeringFor(() => addConnector(ctx.ledger, seq, ctx.reviewer, { provider: 'stripe', name, credentials: { key: secret }, account, now: new Date() }));
    },
    { name: 'connector add stripe', summary: "connect Stripe's balance (charges, fees, refunds, payouts) with a restricted read key", print: connectorLines },
  ),
};
