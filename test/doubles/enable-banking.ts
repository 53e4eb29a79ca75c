// A double of Enable Banking's API (api.enablebanking.com), written from its
// OpenAPI document as Actual's sync server bundles it, over real HTTP on
// 127.0.0.1: every call's JWT verified with the application's PUBLIC key (RS256,
// kid, iss, aud, at most 24 hours), the banks of a country, the bank's page that
// sends the person back with code and state, sessions, accounts' transactions
// paged by continuation_key, balances, and failures a test scripts: 429 with
// Retry-After, 500, a slow answer, an answer that is not JSON or not the shape,
// an expired or revoked session.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID, type KeyObject } from 'node:crypto';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { decodeProtectedHeader, jwtVerify } from 'jose';

export interface DoubleAccount {
  uid: string;
  iban?: string;
  details?: string;
  product?: string;
  name?: string;
  currency: string;
  /** The account's transactions as the API states them (Transaction objects), oldest first. */
  transactions: Record<string, unknown>[];
  balances: Record<string, unknown>[];
}

export interface DoubleBank {
  name: string;
  country: string;
  maximum_consent_validity: number;
}

export type Failure = { kind: 'rate-limit'; retryAfter: string } | { kind: 'server-error' } | { kind: 'slow'; ms: number } | { kind: 'not-json' } | { kind: 'wrong-shape' };

interface Session {
  id: string;
  status: 'AUTHORIZED' | 'EXPIRED' | 'REVOKED' | 'CLOSED';
  validUntil: string;
  aspsp: { name: string; country: string };
  /** The session's own account uids (a uid is good within its session only), each to the account it reads. */
  accounts: string[];
  uids: Map<string, string>;
}

export interface EnableBankingDouble {
  url: string;
  banks: DoubleBank[];
  accounts: DoubleAccount[];
  sessions: Map<string, Session>;
  /** Every call: method, path and query, in order (the bank's page included). */
  calls: string[];
  /** The body of each POST /auth, for the test to read. */
  authRequests: Record<string, any>[];
  /** The next `times` calls whose path starts with `prefix` fail as `failure`. */
  script(prefix: string, failure: Failure, times?: number): void;
  /** The bank books a pending transaction, as banks do, under another entry_reference and on its booking day. */
  book(entryReference: string, booked: { entry_reference: string; booking_date: string }): void;
  /** The session lapses as the bank or the person ends it: answered 401 with the contract's error code. */
  end(sessionId: string, status: 'EXPIRED' | 'REVOKED' | 'CLOSED'): void;
  /** Rows per page of transactions. */
  pageSize: number;
  close(): Promise<void>;
}

const ENDED_CODE = { EXPIRED: 'EXPIRED_SESSION', REVOKED: 'REVOKED_SESSION', CLOSED: 'CLOSED_SESSION' } as const;

const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
};
const refuse = (res: ServerResponse, status: number, error: string, message: string) => send(res, status, { code: status, error, message });

async function bodyOf(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : null;
}

/** A booked Transaction as the contract states one (unsigned amount, indicator, dates); `extra` overrides any field. */
export const transaction = (ref: string | undefined, amount: string, indicator: 'CRDT' | 'DBIT', date: string, extra: Record<string, unknown> = {}) => ({
  ...(ref ? { entry_reference: ref } : {}),
  transaction_amount: { currency: 'GBP', amount },
  credit_debit_indicator: indicator,
  status: 'BOOK',
  booking_date: date,
  value_date: date,
  ...extra,
});

/** A loopback port free now: for a redirect URL registered before its listener starts. */
export async function freePort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  const port = (s.address() as AddressInfo).port;
  await new Promise((ok) => s.close(ok));
  return port;
}

/** The double; `publicKey` is the application's, as Enable Banking keeps it, `applicationId` its kid. */
export async function startEnableBankingDouble(o: { applicationId: string; publicKey: KeyObject; banks?: DoubleBank[]; accounts?: DoubleAccount[] }): Promise<EnableBankingDouble> {
  const scripted: { prefix: string; failure: Failure; times: number }[] = [];
  const authorizations = new Map<string, { code: string; state: string; redirect: string; body: any }>();
  const codes = new Map<string, { body: any }>();
  const keys = new Map<string, { uid: string; from: string; offset: number }>();
  const d: EnableBankingDouble = {
    url: '',
    banks: o.banks ?? [{ name: 'Hartley Bank', country: 'GB', maximum_consent_validity: 90 * 86400 }],
    accounts: o.accounts ?? [],
    sessions: new Map(),
    calls: [],
    authRequests: [],
    pageSize: 2,
    script: (prefix, failure, times = 1) => void scripted.push({ prefix, failure, times }),
    end: (id, status) => void (d.sessions.get(id)!.status = status),
    book: (ref, booked) => {
      for (const a of d.accounts) {
        const i = a.transactions.findIndex((t) => t.entry_reference === ref && t.status === 'PDNG');
        if (i >= 0) a.transactions[i] = { ...a.transactions[i], ...booked, status: 'BOOK', value_date: booked.booking_date };
      }
    },
    close: async () => {},
  };

  async function authorized(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    try {
      if (!token) throw new Error('no token');
      if (decodeProtectedHeader(token).kid !== o.applicationId) throw new Error('unknown kid');
      const { payload } = await jwtVerify(token, o.publicKey, { algorithms: ['RS256'], issuer: 'enablebanking.com', audience: 'api.enablebanking.com' });
      if (!payload.iat || !payload.exp || payload.exp - payload.iat > 86400) throw new Error('lifetime');
      return true;
    } catch {
      refuse(res, 401, 'UNAUTHORIZED_ACCESS', 'JWT is not valid');
      return false;
    }
  }

  /** The session an account belongs to, refused as the contract answers when it lapsed. */
  function accountOf(uid: string, res: ServerResponse): DoubleAccount | null {
    const session = [...d.sessions.values()].find((s) => s.uids.has(uid));
    const account = session && d.accounts.find((a) => a.uid === session.uids.get(uid));
    if (!session || !account) return (void refuse(res, 404, 'ACCOUNT_DOES_NOT_EXIST', 'Account does not exist'), null);
    if (session.status !== 'AUTHORIZED') return (void refuse(res, 401, ENDED_CODE[session.status], `Session is ${session.status.toLowerCase()}`), null);
    return account;
  }

  const resource = (a: DoubleAccount, uid = a.uid) => ({
    uid,
    account_id: a.iban ? { iban: a.iban } : undefined,
    details: a.details,
    product: a.product,
    name: a.name,
    currency: a.currency,
    cash_account_type: 'CACC',
    identification_hash: `hash-${a.uid}`,
    identification_hashes: [`hash-${a.uid}`],
  });

  function transactions(a: DoubleAccount, uid: string, q: URLSearchParams, res: ServerResponse) {
    const key = q.get('continuation_key');
    let from = q.get('date_from') ?? '0000-00-00';
    let offset = 0;
    if (key) {
      const at = keys.get(key);
      if (!at || at.uid !== uid || at.from !== from) return refuse(res, 422, 'WRONG_CONTINUATION_KEY', 'Wrong continuation key');
      ({ from, offset } = at);
    }
    const dateOf = (t: any) => t.booking_date ?? t.value_date ?? t.transaction_date ?? '';
    const all = a.transactions.filter((t) => !dateOf(t) || dateOf(t) >= from); // a row without dates is served as a bank would
    const page = all.slice(offset, offset + d.pageSize);
    let next: string | undefined;
    if (offset + d.pageSize < all.length) {
      next = randomUUID();
      keys.set(next, { uid, from, offset: offset + d.pageSize });
    }
    send(res, 200, { transactions: page, continuation_key: next });
  }

  async function api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const p = url.pathname;
    const q = url.searchParams;
    if (req.method === 'GET' && p === '/aspsps') {
      const banks = d.banks.filter((b) => !q.get('country') || b.country === q.get('country'));
      return send(res, 200, {
        aspsps: banks.map((b) => ({ ...b, logo: `https://enablebanking.com/brands/${b.country}/${b.name}/`, psu_types: ['personal', 'business'], auth_methods: [], beta: false })),
      });
    }
    if (req.method === 'POST' && p === '/auth') return startAuth(await bodyOf(req), res);
    if (req.method === 'POST' && p === '/sessions') return authorizeSession(await bodyOf(req), res);
    let m = /^\/sessions\/([^/]+)$/.exec(p);
    if (req.method === 'GET' && m) {
      const s = d.sessions.get(decodeURIComponent(m[1]));
      if (!s) return refuse(res, 404, 'SESSION_DOES_NOT_EXIST', 'Session does not exist');
      return send(res, 200, {
        status: s.status,
        accounts: s.accounts,
        accounts_data: s.accounts.map((uid) => ({ uid, identification_hash: `hash-${uid}` })),
        aspsp: s.aspsp,
        psu_type: 'personal',
        psu_id_hash: 'psu',
        access: { valid_until: s.validUntil },
        created: new Date().toISOString(),
      });
    }
    m = /^\/accounts\/([^/]+)\/(details|balances|transactions)$/.exec(p);
    const account = m && req.method === 'GET' ? accountOf(decodeURIComponent(m[1]), res) : null;
    if (!m) return refuse(res, 404, 'NOT_FOUND', 'Not found');
    if (!account) return;
    if (m[2] === 'details') return send(res, 200, resource(account, decodeURIComponent(m[1])));
    if (m[2] === 'balances') return send(res, 200, { balances: account.balances });
    return transactions(account, decodeURIComponent(m[1]), q, res);
  }

  function startAuth(body: any, res: ServerResponse) {
    d.authRequests.push(body);
    const bank = d.banks.find((b) => b.name === body?.aspsp?.name && b.country === body?.aspsp?.country);
    if (!bank) return refuse(res, 400, 'WRONG_ASPSP_PROVIDED', 'Wrong ASPSP name provided');
    if (!body.redirect_url || !body.state) return refuse(res, 422, 'WRONG_REQUEST_PARAMETERS', 'redirect_url and state are required');
    if (Date.parse(body.access?.valid_until) > Date.now() + bank.maximum_consent_validity * 1000) {
      return refuse(res, 422, 'WRONG_REQUEST_PARAMETERS', 'valid_until exceeds maximum_consent_validity');
    }
    const id = randomUUID();
    authorizations.set(id, { code: randomUUID(), state: body.state, redirect: body.redirect_url, body });
    send(res, 200, { url: `${d.url}/bank/authorize?authorization=${id}`, authorization_id: id, psu_id_hash: 'psu' });
  }

  function authorizeSession(body: any, res: ServerResponse) {
    const started = codes.get(body?.code);
    if (!started) return refuse(res, 422, 'WRONG_AUTHORIZATION_CODE', 'Wrong authorization code');
    codes.delete(body.code);
    const aspsp = started.body.aspsp;
    const n = d.sessions.size + 1;
    const uids = new Map(d.accounts.map((a) => [`${a.uid}-s${n}`, a.uid]));
    const session: Session = { id: randomUUID(), status: 'AUTHORIZED', validUntil: started.body.access.valid_until, aspsp, accounts: [...uids.keys()], uids };
    d.sessions.set(session.id, session);
    const accounts = [...uids].map(([uid, base]) =>
      resource(
        d.accounts.find((a) => a.uid === base)!,
        uid,
      ),
    );
    send(res, 200, { session_id: session.id, accounts, aspsp, psu_type: 'personal', access: { valid_until: session.validUntil } });
  }

  /** The bank's page: the person agrees at once and is sent back with the code and the state. */
  function bankPage(url: URL, res: ServerResponse) {
    const auth = authorizations.get(url.searchParams.get('authorization') ?? '');
    if (!auth) return void res.writeHead(404).end();
    authorizations.delete(url.searchParams.get('authorization')!);
    codes.set(auth.code, { body: auth.body });
    const back = new URL(auth.redirect);
    back.searchParams.set('code', auth.code);
    back.searchParams.set('state', auth.state);
    res.writeHead(302, { location: back.toString() }).end();
  }

  async function fail(f: Failure, res: ServerResponse): Promise<boolean> {
    if (f.kind === 'rate-limit') return (send(res, 429, { code: 429, error: 'ASPSP_RATE_LIMIT_EXCEEDED', message: 'Too many requests' }, { 'retry-after': f.retryAfter }), true);
    if (f.kind === 'server-error') return (send(res, 500, { code: 500, error: 'ASPSP_ERROR', message: 'Internal error' }), true);
    if (f.kind === 'not-json') return (void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>gateway</html>'), true);
    if (f.kind === 'wrong-shape') return (send(res, 200, { transactions: [{ entry_reference: 'x', transaction_amount: { amount: 'lots' } }] }), true);
    await new Promise((r) => setTimeout(r, f.ms));
    return false;
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    d.calls.push(`${req.method} ${url.pathname}${url.search}`);
    void (async () => {
      if (url.pathname === '/bank/authorize') return bankPage(url, res);
      const s = scripted.find((x) => x.times > 0 && url.pathname.startsWith(x.prefix));
      if (s) s.times--;
      if (s && (await fail(s.failure, res))) return;
      if (!res.writableEnded && !res.destroyed && (await authorized(req, res))) await api(req, res, url);
    })().catch(() => {
      if (!res.headersSent) refuse(res, 400, 'WRONG_REQUEST_PARAMETERS', 'Bad request');
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  d.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  d.close = () =>
    new Promise<void>((ok) => {
      server.closeAllConnections();
      server.close(() => ok());
    });
  return d;
}
