// Connecting a UK or EU bank through Enable Banking (issue 52), one definition
// for the command and the Connections screen: the firm's application (its id
// and private key), the bank picked from the country's list, the bank's page
// opened, the way back, the session's accounts saved (and, given `account`,
// its one account mapped). The command prints the link and waits on its own
// loopback listener (or for a pasted address). A window begins a sign-in kept
// in the books (bank-sign-in.ts) and finishes it when the bank sends the
// browser back: to the server's own address on a server, to the loopback
// listener on the desktop.
import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { Line } from '../../api/fields';
import * as L from '../../ledger';
import { answeringFor } from '../../connectors/outcome';
import { banks, connectFromCommand, enableBankingBase, type ApplicationCredentials } from '../../connectors/enable-banking';
import { op, Org, orgSeq, type DeskContext } from '../operation';
import { KEEPERS } from '../roles';
import type { ConnectorView } from '../../ledger/feeds/view';
import { connectorLines } from './connectors';
import { beginBankSignIn, finishBankSignIn, saveBank, type BankSignIn } from './bank-sign-in';

const Application = {
  country: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code (GB, DE, FI...)')
    .transform((c) => c.toUpperCase())
    .describe("The bank's country (GB, DE, FI...)"),
  applicationId: Line(100).trim().min(1).describe("Your Enable Banking application's id"),
  privateKeyFile: Line(1000).trim().min(1).optional().describe("Owner commands: the application's private key (the .pem file Enable Banking gave you)"),
  privateKey: z.string().max(20_000).optional().describe("A window: the text of the application's .pem file (the screen reads the file)"),
};

/** The application's credentials: the key read from its file (owner commands) or sent as text (a window never names a path). */
function applicationOf(ctx: DeskContext, input: { applicationId: string; privateKeyFile?: string; privateKey?: string }): ApplicationCredentials {
  if (input.privateKeyFile && ctx.mode !== 'command') throw L.invalid([{ field: 'privateKeyFile', message: 'is for owner commands: a window sends the text of the .pem file' }]);
  // A key typed on a command line would stay in the shell's history and the process list.
  if (input.privateKey && ctx.mode === 'command') throw L.invalid([{ field: 'privateKey', message: 'is for windows: owner commands name the file (--private-key-file)' }]);
  if (input.privateKey?.trim()) return { applicationId: input.applicationId, privateKey: input.privateKey.trim() };
  if (!input.privateKeyFile) throw L.invalid([{ field: ctx.mode === 'command' ? 'privateKeyFile' : 'privateKey', message: "is required: the application's .pem file" }]);
  try {
    return { applicationId: input.applicationId, privateKey: readFileSync(input.privateKeyFile, 'utf8') };
  } catch (error) {
    throw L.invalid([{ field: 'privateKeyFile', message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})` }]);
  }
}

const callContext = (credentials: ApplicationCredentials) => ({ credentials, baseUrl: enableBankingBase(), now: new Date() });

export const bankOperations = {
  /** The banks of a country (GET /aspsps), as the Connections screen lets the person pick one. */
  listEnableBankingBanks: op(KEEPERS, z.strictObject({ ...Org, ...Application }), async (ctx, input) => {
    const app = applicationOf(ctx, input);
    await orgSeq(ctx, input.orgId);
    return answeringFor(() => banks(callContext(app), input.country));
  }),

  addEnableBankingConnector: op(
    KEEPERS,
    z.strictObject({
      ...Org,
      name: Line(100).trim().min(1).default('Bank feed').describe('A name of your choice; an existing connector of that name is reconnected (its history kept)'),
      ...Application,
      bank: Line(200).trim().min(1).describe("The bank's name as Enable Banking lists it"),
      redirectUrl: Line(500)
        .trim()
        .min(1)
        .optional()
        .describe('The loopback redirect URL registered for the application (default http://127.0.0.1:7391/enable-banking/callback; a server uses its own address)'),
      account: Line(100).trim().min(1).optional().describe('The ledger account a bank reporting one account feeds (by name or id)'),
    }),
    async (ctx, input): Promise<ConnectorView | BankSignIn> => {
      const app = applicationOf(ctx, input);
      const seq = await orgSeq(ctx, input.orgId);
      if (ctx.mode !== 'command') return answeringFor(() => beginBankSignIn(ctx, seq, callContext(app), input));
      return answeringFor(async () => {
        const said = await connectFromCommand(callContext(app), {
          bank: input.bank,
          country: input.country,
          redirectUrl: input.redirectUrl,
          print: (line) => process.stderr.write(`${line}\n`),
        });
        if (said.kind !== 'connected') throw L.invalid([{ field: 'redirectUrl', message: 'must be this computer’s loopback address for the command' }]);
        return saveBank(ctx, seq, said, input.name, input.account);
      });
    },
    {
      name: 'connector add enable-banking',
      summary: "connect a UK or EU bank through Enable Banking: prints the bank's link and waits for its answer",
      print: (r) => ('link' in r ? [r.link] : connectorLines(r)),
    },
  ),

  /** The bank sent the browser back (`code`, on a server), or the desktop's listener waits for it (no `code`): the connection made. */
  finishEnableBankingConnector: op(
    KEEPERS,
    z.strictObject({
      ...Org,
      state: Line(200).trim().min(1).describe('The state of the sign-in begun (addEnableBankingConnector answered it)'),
      code: Line(2000).trim().min(1).optional().describe('The code the bank sent back; none: the desktop waits for its loopback listener'),
      error: Line(500).optional().describe("The bank's error, when it sent one back instead of a code"),
    }),
    async (ctx, input) => finishBankSignIn(ctx, await orgSeq(ctx, input.orgId), input),
  ),
};
