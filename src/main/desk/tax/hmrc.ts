// HMRC at the desk and as owner commands (issue 54): connecting an organization
// (`hmrc connect`), its obligations, liabilities and payments (`hmrc
// obligations|liabilities|payments`), and the submission (`tax return submit
// --period-key ... --confirm-declaration`): an accountant's or owner's, never an
// agent's. The fraud prevention headers follow how the person reached
// Ledgerdesk: the desktop app, a browser on a server, or a terminal.
import * as z from 'zod';
import { OutsideError } from '../../edge/http';
import { listenForRedirect, PortTakenError } from '../../edge/redirect';
import { beginConnect, deviceId, finishConnect } from '../../hmrc/access';
import type { ClientFacts, FraudInput } from '../../hmrc/fraud';
import { factorReference } from '../../hmrc/fraud';
import { newState } from '../../hmrc/oauth';
import { webRequestFacts } from '../../hmrc/public-ip';
import { hmrcSettings, type HmrcSettings } from '../../hmrc/settings';
import { HMRC_DECLARATION, hmrcLiabilities, hmrcObligations, hmrcPayments, submitVatReturn, type HmrcCaller } from '../../hmrc/submit';
import { DateString, Line } from '../../api/fields';
import * as L from '../../ledger';
import { LedgerError } from '../../ledger/core/errors';
import { findShipped } from '../../ledger/core/paths';
import { readFileSync } from 'node:fs';
import { ACCOUNTANTS, STAFF } from '../roles';
import { op, Org, orgSeq, type DeskContext } from '../operation';

/** The loopback port a desktop or a command listens on for HMRC's redirect: the one registered with HMRC. */
export const HMRC_REDIRECT_PORT = 8040;
const REDIRECT_PATH = '/hmrc/callback';

function settings(): HmrcSettings {
  try {
    return hmrcSettings();
  } catch (error) {
    if (error instanceof OutsideError) throw new LedgerError('conflict', error.message, { reason: 'hmrc_not_configured' });
    throw error;
  }
}

/**
 * The loopback port HMRC's redirect needs is held by another program: which port, why this one (HMRC sends the
 * browser back only to an address registered exactly), and what to do.
 */
function portTaken(port: number): LedgerError {
  const address = `http://127.0.0.1:${port}${REDIRECT_PATH}`;
  return new LedgerError(
    'conflict',
    `Port ${port} on this computer is taken by another program, and Ledgerdesk must listen on it: HMRC sends your browser back only to a redirect address registered exactly with your application on HMRC's Developer Hub (${address}), so no other port will do. Close the program using port ${port} (another "ledgerdesk hmrc connect" still waiting, or the desktop app's Connect to HMRC), then connect again; or register http://127.0.0.1:<another port>${REDIRECT_PATH} with HMRC and connect with that port (ledgerdesk hmrc connect <vrn> --port <another port>).`,
    { reason: 'port_in_use', port },
  );
}

const version = (): string => (JSON.parse(readFileSync(findShipped('package.json'), 'utf8')) as { version: string }).version;

const Client = z
  .strictObject({
    deviceId: z.uuid().optional(),
    screens: z
      .array(z.strictObject({ width: z.int().positive(), height: z.int().positive(), scalingFactor: z.number().positive(), colourDepth: z.int().positive() }))
      .max(16)
      .optional(),
    windowSize: z.strictObject({ width: z.int().positive(), height: z.int().positive() }).optional(),
    timezoneOffsetMinutes: z.int().min(-900).max(900).optional(),
    userAgent: Line(1000).optional(),
  })
  .optional()
  .describe("What the screen reports of itself for HMRC's fraud prevention headers (the Tax screen sends it)");

/** Who is calling HMRC and from where, for its fraud prevention headers. */
async function caller(ctx: DeskContext, client?: ClientFacts): Promise<HmrcCaller> {
  const method: FraudInput['method'] = ctx.mode === 'browser' ? 'WEB_APP_VIA_SERVER' : ctx.mode === 'desktop' ? 'DESKTOP_APP_DIRECT' : 'OTHER_DIRECT';
  const person = ctx.person ?? null;
  const factorAt = person?.totp ? await L.secondFactorUsedAt(ctx.ledger, person.seq) : null;
  const userId = person?.email ?? 'owner';
  return {
    settings: settings(),
    fraud: {
      method,
      deviceId: method === 'WEB_APP_VIA_SERVER' ? undefined : deviceId(ctx.dataDir),
      client,
      acting: { userId, secondFactor: factorAt ? { type: 'TOTP', at: factorAt, reference: factorReference(person!.id, 'TOTP') } : null },
      product: { name: 'Ledgerdesk', version: version() },
      // The browser's public address and port and the server's, from the request (a private network's: none).
      ...(method === 'WEB_APP_VIA_SERVER' ? await webRequestFacts(ctx.seen, ctx.publicUrl) : {}),
    },
  };
}

const money = (n: number | undefined) => (n === undefined ? '' : n.toFixed(2));
const Range = { from: DateString, to: DateString };

export const hmrcOperations = {
  hmrcStatus: op(
    STAFF,
    z.strictObject(Org),
    async (ctx, { orgId }) => {
      const seq = await orgSeq(ctx, orgId);
      // Which HMRC this Ledgerdesk talks to (the Tax screen says so); null where no application is set.
      let service: { sandbox: boolean; apiBase: string } | null = null;
      try {
        const s = hmrcSettings();
        service = { sandbox: s.sandbox, apiBase: s.apiBase };
      } catch (error) {
        if (!(error instanceof OutsideError)) throw error;
      }
      return { connection: await L.hmrcConnection(ctx.ledger, seq), submissions: await L.listSubmissions(ctx.ledger, seq), declaration: HMRC_DECLARATION, service };
    },
    {
      name: 'hmrc status',
      summary: "the organization's connection to HMRC (its VRN, until when) and its returns sent",
      print: (s) => [
        s.connection
          ? `VRN ${s.connection.vrn}: ${s.connection.connected ? `connected until ${s.connection.refreshExpiresAt?.slice(0, 10)}` : 'not connected'}`
          : 'Not connected to HMRC: ledgerdesk hmrc connect <vrn>.',
        ...(s.connection?.warning ? [s.connection.warning] : []),
        ...s.submissions.map((x) => `${x.periodKey}  ${x.from} to ${x.to}  ${x.status}${x.errorMessage ? `: ${x.errorMessage}` : ''}`),
      ],
    },
  ),

  hmrcConnect: op(
    ACCOUNTANTS,
    z.strictObject({
      ...Org,
      vrn: Line(20).trim().min(1).describe('The VAT registration number (9 digits)'),
      port: z.int().min(1).max(65535).optional().describe(`The loopback port registered with HMRC (default ${HMRC_REDIRECT_PORT})`),
    }),
    async (ctx, { orgId, vrn, port }) => {
      const seq = await orgSeq(ctx, orgId);
      const s = settings();
      const state = newState();
      if (ctx.mode === 'browser') {
        // A firm's server: HMRC sends the browser back to the server's own address, where the Tax screen finishes it.
        if (!ctx.publicUrl)
          throw new LedgerError('conflict', 'This server has no public address (serve --public-url) for HMRC to send the browser back to.', { reason: 'no_public_url' });
        return { url: (await beginConnect(ctx.ledger, seq, s, { vrn, redirectUri: `${ctx.publicUrl.replace(/\/+$/, '')}/`, state })).url, connection: null };
      }
      const listener = await listenForRedirect({ state, service: 'HMRC', path: REDIRECT_PATH, port: port ?? HMRC_REDIRECT_PORT }).catch((e: unknown) => {
        throw e instanceof PortTakenError ? portTaken(e.port) : e;
      });
      const { url } = await beginConnect(ctx.ledger, seq, s, { vrn, redirectUri: listener.url, state }).catch((e: unknown) => {
        listener.close();
        throw e;
      });
      const finish = listener.received.then(({ code }) => finishConnect(ctx.ledger, seq, ctx.reviewer, s, { code, state }));
      if (ctx.mode === 'desktop') {
        finish.catch(() => undefined); // The Tax screen reads the outcome (hmrcStatus).
        return { url, connection: null };
      }
      ctx.stdout?.write(`Open this link, sign in to HMRC and grant Ledgerdesk access (waiting for HMRC to send you back):\n${url}\n`);
      return { url, connection: await finish };
    },
    {
      name: 'hmrc connect',
      summary: "connect the organization to HMRC (prints HMRC's sign-in link and waits for it to send you back)",
      args: ['vrn'],
      print: (r) => (r.connection ? [`Connected to HMRC for VRN ${r.connection.vrn} until ${r.connection.refreshExpiresAt?.slice(0, 10)}.`] : [r.url]),
    },
  ),

  hmrcConnectFinish: op(ACCOUNTANTS, z.strictObject({ ...Org, code: Line(500).min(1), state: Line(200).min(1) }), async (ctx, { orgId, code, state }) =>
    finishConnect(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, settings(), { code, state }),
  ),

  hmrcObligations: op(
    STAFF,
    z.strictObject({
      ...Org,
      from: DateString.optional(),
      to: DateString.optional(),
      status: z.enum(['O', 'F']).optional().describe('O: open, F: fulfilled (default: open)'),
      client: Client,
    }),
    async (ctx, { orgId, client, ...q }) => hmrcObligations(ctx.ledger, await orgSeq(ctx, orgId), await caller(ctx, client), q),
    {
      name: 'hmrc obligations',
      summary: "HMRC's VAT obligations (open ones unless dates are given), beside Ledgerdesk's periods",
      print: (list) =>
        list.length
          ? list.map(
              (o) =>
                `${o.periodKey.padEnd(6)} ${o.start} to ${o.end}  due ${o.due}  ${o.status === 'O' ? 'open' : `fulfilled ${o.received ?? ''}`}${o.mismatch ? `  ${o.mismatch}` : ''}`,
            )
          : ['HMRC lists no obligation.'],
    },
  ),

  hmrcLiabilities: op(
    STAFF,
    z.strictObject({ ...Org, ...Range, client: Client }),
    async (ctx, { orgId, client, ...q }) => hmrcLiabilities(ctx.ledger, await orgSeq(ctx, orgId), await caller(ctx, client), q),
    {
      name: 'hmrc liabilities',
      summary: 'what HMRC says is owed for VAT in a date range (--from, --to)',
      print: (list) =>
        list.length
          ? list.map(
              (l) =>
                `${l.taxPeriod ? `${l.taxPeriod.from} to ${l.taxPeriod.to}` : ''}  ${l.type}  ${money(l.originalAmount)}  outstanding ${money(l.outstandingAmount)}  due ${l.due ?? ''}`,
            )
          : ['HMRC lists no liability.'],
    },
  ),

  hmrcPayments: op(
    STAFF,
    z.strictObject({ ...Org, ...Range, client: Client }),
    async (ctx, { orgId, client, ...q }) => hmrcPayments(ctx.ledger, await orgSeq(ctx, orgId), await caller(ctx, client), q),
    {
      name: 'hmrc payments',
      summary: 'the VAT payments HMRC received in a date range (--from, --to)',
      print: (list) => (list.length ? list.map((p) => `${p.received ?? ''}  ${money(p.amount)}`) : ['HMRC lists no payment.']),
    },
  ),

  submitTaxReturn: op(
    ACCOUNTANTS,
    z.strictObject({
      ...Org,
      periodKey: Line(4).trim().min(1).describe("HMRC's period key of an open obligation (hmrc obligations)"),
      confirmDeclaration: z.boolean().default(false).describe(`HMRC's declaration, made by the person: "${HMRC_DECLARATION}"`),
      confirmCorrections: z.boolean().optional(),
      client: Client,
    }),
    async (ctx, { orgId, client, ...input }) => submitVatReturn(ctx.ledger, await orgSeq(ctx, orgId), ctx.reviewer, await caller(ctx, client), input),
    {
      name: 'tax return submit',
      summary: "send the VAT return of an open obligation to HMRC (--period-key, --confirm-declaration: HMRC's declaration)",
      print: (r) => [
        `HMRC accepted the VAT return for ${r.periodKey} (${r.from} to ${r.to}).`,
        `Processing date ${String(r.receipt.processingDate ?? '')}, form bundle ${String(r.receipt.formBundleNumber ?? '')}, receipt ${String(r.receipt.receiptId ?? '')} at ${String(r.receipt.receiptTimestamp ?? '')}${r.receipt.chargeRefNumber ? `, charge reference ${String(r.receipt.chargeRefNumber)}` : ''}${r.receipt.paymentIndicator ? `, payment ${String(r.receipt.paymentIndicator)}` : ''}.`,
        ...(r.notFiled ? [r.notFiled] : []),
      ],
    },
  ),
};
