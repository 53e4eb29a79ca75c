// Connectors at the desk and as owner commands (issue 52): list, add
// (SimpleFIN here; each provider's add is its own operation in this folder),
// map, sync one or all, the first sync's preview and its confirmation, the rows
// held for the person, disconnect. A bookkeeper and up changes them; staff see
// them. No answer holds a credential.
import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { Line } from '../../api/fields';
import * as L from '../../ledger';
import { addConnector } from '../../connectors/connect';
import { confirmFirst, previewFirstSync } from '../../connectors/preview';
import { claimSetupToken } from '../../connectors/simplefin';
import { answeringFor } from '../../connectors/outcome';
import { syncConnector, type SyncReport } from '../../connectors/sync';
import { connectorRows, mapFeedAccount, removeConnector } from '../../ledger/feeds/connectors';
import { decideHeld, listHeld } from '../../ledger/feeds/held';
import { pendingRows } from '../../ledger/feeds/pending';
import { connectorViews, type ConnectorView } from '../../ledger/feeds/view';
import { op, Org, orgSeq, type DeskContext } from '../operation';
import { KEEPERS, STAFF } from '../roles';

const Ref = Line(200).trim().min(1).describe('The connector: its name or id');
const AccountRef = Line(100).trim().min(1).describe('The ledger account it feeds: its name or id (a new checking account of that name when none has it)');
const FeedRef = Line(200).trim().min(1).describe("The provider's account: its name or id as the connector reports it");

/** A secret given on standard input (owner commands), or in the request (a window's paste); never both, never neither. */
export function secretFrom(ctx: DeskContext, field: string, given: string | undefined, stdin: boolean | undefined): string {
  if (stdin && ctx.mode !== 'command') throw L.invalid([{ field: `${field}Stdin`, message: 'is for owner commands' }]);
  const text = stdin ? readFileSync(0, 'utf8').trim() : given?.trim();
  if (!text) throw L.invalid([{ field, message: `is required (owner commands: pipe it to --${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}-stdin)` }]);
  return text;
}

const when = (iso: string | null) => (iso ? iso.slice(0, 16).replace('T', ' ') : 'never');
export const connectorLines = (c: ConnectorView): string[] => [
  `${c.name}  (${c.provider})  ${c.status}${c.syncStatus ? `, last sync ${c.syncStatus}` : ''}  last ${when(c.lastSyncAt)}  next ${when(c.nextSyncAt)}${c.consentExpiresAt ? `  consent until ${c.consentExpiresAt.slice(0, 10)}` : ''}${c.held ? `  ${c.held} held` : ''}`,
  ...(c.error ? [`  error: ${c.error}`] : []),
  ...(c.consentWarning ? [`  ${c.consentWarning}`] : []),
  ...c.accounts.map(
    (a) =>
      `  ${a.name} (${a.currency}) -> ${a.account ? `"${a.account.name}"` : 'not mapped'}${a.awaitingPreview ? ' (first sync waits for its preview)' : ''}${a.pending ? `, ${a.pending} pending` : ''}`,
  ),
];

const reportLines = (r: SyncReport): string[] => [
  `${r.connector}: ${r.outcome === 'busy' ? 'syncing in another process' : r.outcome}${r.error ? `: ${r.error}` : ''}`,
  ...r.accounts.map((a) =>
    a.state === 'synced'
      ? `  ${a.name}: ${a.imported} new, ${a.duplicates} already in the books, ${a.held} held, ${a.pending} pending`
      : `  ${a.name}: ${a.state === 'unmapped' ? 'not mapped' : 'waits for its first sync\u2019s preview'}`,
  ),
];

const syncOptions = (ctx: DeskContext) => ({ now: new Date(), actor: ctx.reviewer });

export const connectorOperations = {
  listConnections: op(STAFF, z.strictObject(Org), async (ctx, { orgId }) => connectorViews(ctx.ledger, await orgSeq(ctx, orgId), new Date()), {
    name: 'connector list',
    summary: 'the bank feeds and payment processors that sync into the books, with their status',
    print: (list) => (list.length ? list.flatMap(connectorLines) : ['No connectors yet: add one with "ledgerdesk connector add simplefin --setup-token-stdin".']),
  }),

  addSimplefinConnector: op(
    KEEPERS,
    z.strictObject({
      ...Org,
      name: Line(100).trim().min(1).default('SimpleFIN').describe('A name of your choice; an existing SimpleFIN connector of that name is reconnected (its history kept)'),
      setupToken: Line(4000).trim().min(1).optional().describe('The SimpleFIN setup token (a window pastes it)'),
      setupTokenStdin: z.boolean().optional().describe('Read the setup token from standard input'),
      account: AccountRef.optional(),
    }),
    async (ctx, { orgId, name, setupToken, setupTokenStdin, account }) => {
      const token = secretFrom(ctx, 'setupToken', setupToken, setupTokenStdin);
      const seq = await orgSeq(ctx, orgId);
      return answeringFor(async () =>
        addConnector(ctx.ledger, seq, ctx.reviewer, { provider: 'simplefin', name, credentials: await claimSetupToken(token), account, now: new Date() }),
      );
    },
    { name: 'connector add simplefin', summary: 'connect US and Canadian banks through SimpleFIN with a setup token (claimed once)', print: connectorLines },
  ),

  mapConnectorAccount: op(
    KEEPERS,
    z.strictObject({ ...Org, connector: Ref, feedAccount: FeedRef.optional(), account: AccountRef }),
    async (ctx, { orgId, connector, feedAccount, account }) => {
      const seq = await orgSeq(ctx, orgId);
      await mapFeedAccount(ctx.ledger, seq, ctx.reviewer, connector, { feedAccount, account });
      return (await connectorViews(ctx.ledger, seq, new Date())).find((c) => c.name.toLowerCase() === connector.toLowerCase() || c.id === connector)!;
    },
    { name: 'connector map', summary: "map a provider's account to a ledger account", args: ['connector'], print: connectorLines },
  ),

  syncConnector: op(KEEPERS, z.strictObject({ ...Org, connector: Ref }), async (ctx, { orgId, connector }) =>
    syncConnector(ctx.ledger, await orgSeq(ctx, orgId), connector, syncOptions(ctx)),
  ),

  syncAllConnectors: op(
    KEEPERS,
    z.strictObject({ ...Org, connector: Ref.optional() }),
    async (ctx, { orgId, connector }) => {
      const seq = await orgSeq(ctx, orgId);
      const names = connector ? [connector] : (await connectorRows(ctx.ledger, seq)).filter((c) => c.status === 'active').map((c) => c.id);
      const reports: SyncReport[] = [];
      for (const name of names) reports.push(await syncConnector(ctx.ledger, seq, name, syncOptions(ctx)));
      return reports;
    },
    {
      name: 'connector sync',
      summary: 'sync every connector now, or the one named',
      args: ['connector'],
      print: (list) => (list.length ? list.flatMap(reportLines) : ['No connectors to sync.']),
      failed: (list) => list.some((r) => r.outcome === 'error'),
    },
  ),

  previewFirstSync: op(KEEPERS, z.strictObject({ ...Org, connector: Ref, feedAccount: FeedRef.optional() }), async (ctx, { orgId, connector, feedAccount }) => {
    const seq = await orgSeq(ctx, orgId);
    return answeringFor(() => previewFirstSync(ctx.ledger, seq, connector, feedAccount, syncOptions(ctx)));
  }),

  confirmFirstSync: op(
    KEEPERS,
    z.strictObject({ ...Org, connector: Ref, feedAccount: FeedRef.optional() }),
    async (ctx, { orgId, connector, feedAccount }) => confirmFirst(ctx.ledger, await orgSeq(ctx, orgId), connector, feedAccount, syncOptions(ctx)),
    { name: 'connector confirm', summary: "make an account's first sync after looking at its preview", args: ['connector'], print: reportLines },
  ),

  /** An account's pending rows, for its register (read-only: they are counted nowhere). */
  listPendingRows: op(STAFF, z.strictObject({ ...Org, account: AccountRef }), async (ctx, { orgId, account }) => {
    const seq = await orgSeq(ctx, orgId);
    return pendingRows(ctx.ledger, (await L.requireAccount(ctx.ledger, seq, account)).seq);
  }),

  listHeldRows: op(STAFF, z.strictObject(Org), async (ctx, { orgId }) => listHeld(ctx.ledger, await orgSeq(ctx, orgId))),

  decideHeldRow: op(
    KEEPERS,
    z.strictObject({
      ...Org,
      id: Line(100).trim().min(1),
      decision: z.enum(['keep', 'import']).describe("keep: the books' version stays; import: the feed's is written as a row of its own"),
    }),
    async (ctx, { orgId, id, decision }) => decideHeld(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, id, decision),
  ),

  removeConnector: op(
    KEEPERS,
    z.strictObject({ ...Org, connector: Ref }),
    async (ctx, { orgId, connector }) => {
      const row = await removeConnector(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, connector);
      return { id: row.id, name: row.name, status: row.status };
    },
    {
      name: 'connector remove',
      summary: 'disconnect a connector: its credentials are forgotten, the rows it brought stay',
      args: ['connector'],
      print: (r) => [`Disconnected ${r.name}: its rows stay.`],
    },
  ),
};
