// A double of HMRC's VAT (MTD) API 1.0 and its OAuth endpoints, written from
// hmrc/vat-api's resources/public/api/conf/1.0/application.yaml (paths, shapes,
// error codes, the Gov-Test-Scenario tables), over real HTTP on 127.0.0.1 port 0.
// Every VAT call must carry a live bearer token, Accept
// application/vnd.hmrc.1.0+json and valid fraud prevention headers
// (fraud-headers.ts). Gov-Test-Scenario picks HMRC's scripted answers
// (DUPLICATE_SUBMISSION, TAX_PERIOD_NOT_ENDED, INVALID_PERIODKEY, INVALID_VRN)
// and the double's own: THROTTLED (429), SERVER_ERROR (503), LOST_ANSWER (the
// return is kept, the connection dropped before any answer), all on the return POST.
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fraudHeaderProblems } from './fraud-headers';

export interface DoubleObligation {
  periodKey: string;
  start: string;
  end: string;
  due: string;
}

export interface HmrcDouble {
  url: string;
  clientId: string;
  clientSecret: string;
  /** Every VAT return POST received, by period key (accepted or not). */
  posts: { periodKey: string; scenario: string | null }[];
  /** Returns held, by period key. */
  returns: Map<string, Record<string, unknown>>;
  /** Token grants made, by grant type. */
  grants: string[];
  /** Each call's fraud header problems (a call with any is refused). */
  refusedHeaders: string[][];
  /** The last fraud headers received. */
  lastHeaders: Record<string, string>;
  /** Holds each return POST this long before answering (two submissions at once). */
  postDelayMs: number;
  /** Access tokens lapse after this many seconds (HMRC: 4 hours). */
  expiresIn: number;
  /** Liabilities and payments to answer. */
  liabilities: unknown[];
  payments: unknown[];
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  void res.writeHead(status, { 'content-type': 'application/json', 'x-correlationid': randomUUID(), ...headers }).end(JSON.stringify(body));
const fail = (res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}) => json(res, status, { code, message }, headers);

const bodyOf = async (req: IncomingMessage): Promise<string> => {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text;
};

export async function startHmrcDouble(o: { vrn: string; obligations: DoubleObligation[] }): Promise<HmrcDouble> {
  const codes = new Map<string, string>();
  const access = new Map<string, number>();
  const refresh = new Set<string>();
  const d: Omit<HmrcDouble, 'url' | 'close'> = {
    clientId: 'ledgerdesk-test-client',
    clientSecret: randomBytes(12).toString('hex'),
    posts: [],
    returns: new Map(),
    grants: [],
    refusedHeaders: [],
    lastHeaders: {},
    postDelayMs: 0,
    expiresIn: 4 * 3600,
    liabilities: [],
    payments: [],
  };
  const issue = (res: ServerResponse) => {
    const a = randomBytes(16).toString('hex');
    const r = randomBytes(16).toString('hex');
    access.set(a, Date.now() + d.expiresIn * 1000);
    refresh.add(r);
    json(res, 200, { access_token: a, refresh_token: r, expires_in: d.expiresIn, scope: 'read:vat write:vat', token_type: 'bearer' });
  };

  async function oauth(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (url.pathname === '/oauth/authorize') {
      const q = url.searchParams;
      if (q.get('client_id') !== d.clientId || q.get('response_type') !== 'code' || q.get('scope') !== 'read:vat write:vat')
        return fail(res, 400, 'invalid_request', 'bad authorize request');
      // The person signs in and grants access: HMRC sends the browser back with a code and the state.
      const code = randomBytes(10).toString('hex');
      codes.set(code, q.get('redirect_uri') ?? '');
      const back = new URL(q.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') ?? '');
      return void res.writeHead(303, { location: String(back) }).end();
    }
    const form = new URLSearchParams(await bodyOf(req));
    if (form.get('client_id') !== d.clientId || form.get('client_secret') !== d.clientSecret) return json(res, 401, { error: 'invalid_client' });
    d.grants.push(form.get('grant_type') ?? '');
    if (form.get('grant_type') === 'authorization_code') {
      const code = form.get('code') ?? '';
      if (!codes.has(code) || codes.get(code) !== form.get('redirect_uri')) return json(res, 400, { error: 'invalid_grant', error_description: 'code invalid' });
      codes.delete(code);
      return issue(res);
    }
    if (form.get('grant_type') === 'refresh_token' && refresh.delete(form.get('refresh_token') ?? '')) return issue(res);
    return json(res, 400, { error: 'invalid_grant', error_description: 'refresh token invalid' });
  }

  async function vat(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const header = (name: string) => req.headers[name.toLowerCase()] as string | undefined;
    if (header('accept') !== 'application/vnd.hmrc.1.0+json') return fail(res, 406, 'ACCEPT_HEADER_INVALID', 'The accept header is missing or invalid');
    const token = (header('authorization') ?? '').replace(/^Bearer /, '');
    if ((access.get(token) ?? 0) < Date.now()) return fail(res, 401, 'INVALID_CREDENTIALS', 'Invalid Authentication information provided');
    const problems = fraudHeaderProblems(header);
    d.lastHeaders = Object.fromEntries(
      Object.entries(req.headers)
        .filter(([k]) => k.startsWith('gov-'))
        .map(([k, v]) => [k, String(v)]),
    );
    if (problems.length) {
      d.refusedHeaders.push(problems);
      return fail(res, 400, 'INVALID_FRAUD_HEADERS', problems.join('; '));
    }
    const m = /^\/organisations\/vat\/([^/]+)\/(obligations|returns|liabilities|payments)(?:\/([^/]+))?$/.exec(url.pathname);
    if (!m) return fail(res, 404, 'MATCHING_RESOURCE_NOT_FOUND', 'A resource with the name in the request can not be found in the API');
    const scenario = header('gov-test-scenario') ?? null;
    if (m[1] !== o.vrn) return fail(res, 400, 'VRN_INVALID', 'The provided VRN is invalid');
    if (m[2] === 'obligations') {
      const status = url.searchParams.get('status');
      const list = o.obligations
        .map((x) => ({ ...x, status: d.returns.has(x.periodKey) ? 'F' : 'O', ...(d.returns.has(x.periodKey) ? { received: '2026-11-01' } : {}) }))
        .filter((x) => !status || x.status === status);
      return list.length ? json(res, 200, { obligations: list }) : fail(res, 404, 'NOT_FOUND', 'The remote endpoint has indicated that no associated data found');
    }
    if (m[2] === 'liabilities' || m[2] === 'payments') {
      const rows = m[2] === 'liabilities' ? d.liabilities : d.payments;
      return rows.length ? json(res, 200, { [m[2]]: rows }) : fail(res, 404, 'NOT_FOUND', 'The remote endpoint has indicated that no associated data found');
    }
    if (req.method === 'GET') {
      const held = d.returns.get(decodeURIComponent(m[3] ?? ''));
      return held ? json(res, 200, held) : fail(res, 404, 'NOT_FOUND', 'The remote endpoint has indicated that no associated data found');
    }
    return submit(req, res, scenario);
  }

  async function submit(req: IncomingMessage, res: ServerResponse, scenario: string | null): Promise<void> {
    const body = JSON.parse(await bodyOf(req)) as Record<string, unknown>;
    const periodKey = String(body.periodKey);
    d.posts.push({ periodKey, scenario });
    if (d.postDelayMs) await new Promise((r) => setTimeout(r, d.postDelayMs));
    // The scenarios are the return POST's (its Gov-Test-Scenario table, and the double's own).
    if (scenario === 'INVALID_VRN') return fail(res, 400, 'VRN_INVALID', 'The provided VRN is invalid');
    if (scenario === 'THROTTLED') return fail(res, 429, 'MESSAGE_THROTTLED_OUT', 'The application has reached its maximum rate limit', { 'retry-after': '60' });
    if (scenario === 'SERVER_ERROR') return fail(res, 503, 'SERVICE_UNAVAILABLE', 'Service unavailable');
    if (scenario === 'INVALID_PERIODKEY' || !o.obligations.some((x) => x.periodKey === periodKey)) return fail(res, 400, 'PERIOD_KEY_INVALID', 'Invalid period key');
    if (scenario === 'TAX_PERIOD_NOT_ENDED')
      return fail(res, 403, 'TAX_PERIOD_NOT_ENDED', 'The remote endpoint has indicated that the submission is for a tax period that has not ended');
    if (scenario === 'DUPLICATE_SUBMISSION' || d.returns.has(periodKey)) return fail(res, 403, 'DUPLICATE_SUBMISSION', 'The VAT return was already submitted for the given period');
    if (body.finalised !== true) return fail(res, 403, 'NOT_FINALISED', 'User has not declared VAT return as final');
    const n = (k: string) => Number(body[k]);
    if (Math.round((n('vatDueSales') + n('vatDueAcquisitions')) * 100) !== Math.round(n('totalVatDue') * 100))
      return fail(res, 400, 'VAT_TOTAL_VALUE', 'totalVatDue should be equal to the sum of vatDueSales and vatDueAcquisitions');
    if (Math.round(Math.abs(n('totalVatDue') - n('vatReclaimedCurrPeriod')) * 100) !== Math.round(n('netVatDue') * 100))
      return fail(res, 400, 'VAT_NET_VALUE', 'netVatDue should be the difference between the largest and the smallest values among totalVatDue and vatReclaimedCurrPeriod');
    if (['totalValueSalesExVAT', 'totalValuePurchasesExVAT', 'totalValueGoodsSuppliedExVAT', 'totalAcquisitionsExVAT'].some((k) => !Number.isInteger(n(k))))
      return fail(res, 400, 'INVALID_MONETARY_AMOUNT', 'amount should be a monetary value (to 2 zeroed decimal places)');
    const processingDate = new Date().toISOString().replace('Z', '+0000');
    d.returns.set(periodKey, { ...body, processingDate });
    if (scenario === 'LOST_ANSWER') return void req.socket.destroy();
    json(
      res,
      201,
      { processingDate, paymentIndicator: 'BANK', formBundleNumber: String(Date.now()).slice(-12), chargeRefNumber: 'aCxFaNx0FZsCvyWF' },
      { 'receipt-id': randomUUID(), 'receipt-timestamp': new Date().toISOString().slice(0, 19) + 'Z' },
    );
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    (url.pathname.startsWith('/oauth/') ? oauth(req, res, url) : vat(req, res, url)).catch((e: Error) => fail(res, 500, 'INTERNAL', e.message));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(d, {
    url,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  });
}
