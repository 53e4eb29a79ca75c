// Connecting the providers other than SimpleFIN (issue 52), each its own way,
// then the one addConnector: Stripe with a restricted key (pasted, or piped to
// `--key-stdin`); a UK or EU bank through Enable Banking with the firm's
// application and the bank's sign-in (the command prints the bank's link and
// waits on a loopback listener for the way back, as desktop OAuth clients do).
import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { Line } from '../../api/fields';
import * as L from '../../ledger';
import { addConnector } from '../../connectors/connect';
import { answeringFor } from '../../connectors/outcome';
import { connectFromCommand, enableBankingBase } from '../../connectors/enable-banking';
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

  addEnableBankingConnector: op(
    KEEPERS,
    z.strictObject({
      ...Org,
      name: Name('Bank feed'),
      country: z
        .string()
        .regex(/^[A-Za-z]{2}$/)
        .transform((c) => c.toUpperCase())
        .describe("The bank's country (GB, DE, FI...)"),
      bank: Line(200).trim().min(1).describe("The bank's name as Enable Banking lists it"),
      applicationId: Line(100).trim().min(1).describe("Your Enable Banking application's id"),
      privateKeyFile: Line(1000).trim().min(1).describe("The application's private key (the .pem file Enable Banking gave you)"),
      redirectUrl: Line(500).trim().min(1).optional().describe('The redirect URL registered for the application (default http://127.0.0.1:7391/enable-banking/callback)'),
      account: Account.optional(),
    }),
    async (ctx, input) => {
      if (ctx.mode !== 'command')
        throw L.invalid([{ field: 'privateKeyFile', message: 'connecting a bank is done with the command `ledgerdesk connector add enable-banking` for now' }]);
      let privateKey: string;
      try {
        privateKey = readFileSync(input.privateKeyFile, 'utf8');
      } catch (error) {
        throw L.invalid([{ field: 'privateKeyFile', message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})` }]);
      }
      const seq = await orgSeq(ctx, input.orgId);
      return answeringFor(async () => {
        const app = { credentials: { applicationId: input.applicationId, privateKey }, baseUrl: enableBankingBase(), now: new Date() };
        const said = await connectFromCommand(app, {
          bank: input.bank,
          country: input.country,
          redirectUrl: input.redirectUrl,
          print: (line) => process.stderr.write(`${line}\n`),
        });
        if (said.kind !== 'connected') throw L.invalid([{ field: 'redirectUrl', message: 'must be this computer’s loopback address for the command' }]);
        return addConnector(ctx.ledger, seq, ctx.reviewer, {
          provider: 'enable-banking',
          name: input.name,
          credentials: said.credentials,
          account: input.account,
          now: new Date(),
        });
      });
    },
    {
      name: 'connector add enable-banking',
      summary: "connect a UK or EU bank through Enable Banking: prints the bank's link and waits for its answer",
      print: connectorLines,
    },
  ),
};
