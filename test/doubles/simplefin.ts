// A SimpleFIN server for the tests (issue 52), written from the protocol
// (https://www.simplefin.org/protocol.html): real HTTP on 127.0.0.1, port 0.
// `POST /claim/:token` answers an access URL (Basic credentials in it) once per
// setup token and 403 after; `GET /simplefin/accounts` answers an Account Set
// (`errors`, `accounts` with `transactions`) for `start-date` (inclusive),
// `end-date` (exclusive), `pending=1`, `account=` and `balances-only=1`, and 403
// once the access is revoked. A test scripts what the bank does (a pending row
// booked under another id, a renumbered day, a changed booked row) by editing
// an account's transactions, and what the service does (429 with Retry-After,
// 500, a slow answer, malformed JSON, a dropped connection) with `fail`.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

export interface SfinTransaction {
  id: string;
  posted: number;
  amount: string;
  description: string;
  pending?: boolean;
  transacted_at?: number;
}

export interface SfinAccount {
  id: string;
  name: string;
  currency: string;
  balance: string;
  transactions: SfinTransaction[];
}

export type Failure = '429' | '500' | 'slow' | 'malformed' | 'drop';

export interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  authorized: boolean;
}

/** Epoch seconds of a day at noon UTC. */
export const epoch = (day: string): number => Date.parse(`${day}T12:00:00Z`) / 1000;

export class SimplefinDouble {
  readonly accounts = new Map<string, SfinAccount>();
  readonly calls: Call[] = [];
  readonly user = `user${randomBytes(4).toString('hex')}`;
  readonly password = `pw${randomBytes(12).toString('hex')}`;
  revoked = false;
  retryAfter = '120';
  slowMs = 3000;
  /** Failures for the coming /accounts calls, in order (`fail`), or for one call by its number (`failOnCall`). */
  private readonly failures: Failure[] = [];
  private readonly onCall = new Map<number, Failure>();
  private readonly tokens = new Map<string, boolean>();
  private accountCalls = 0;
  private server!: Server;
  base = '';

  static async start(): Promise<SimplefinDouble> {
    const d = new SimplefinDouble();
    d.server = createServer((req, res) => void d.handle(req, res));
    await new Promise<void>((r) => d.server.listen(0, '127.0.0.1', r));
    d.base = `http://127.0.0.1:${(d.server.address() as AddressInfo).port}`;
    return d;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }

  /** A new setup token: base64 of a claim URL, good for one claim. */
  setupToken(): string {
    const token = randomBytes(8).toString('hex');
    this.tokens.set(token, false);
    return Buffer.from(`${this.base}/claim/${token}`).toString('base64');
  }

  get accessUrl(): string {
    return `${this.base.replace('http://', `http://${this.user}:${this.password}@`)}/simplefin`;
  }

  account(id: string, name = `Checking ${id}`, currency = 'USD'): SfinAccount {
    const a = { id, name, currency, balance: '0.00', transactions: [] };
    this.accounts.set(id, a);
    return a;
  }

  fail(kind: Failure, times = 1): void {
    for (let i = 0; i < times; i++) this.failures.push(kind);
  }

  /** The n-th /accounts call from now (1: the next) fails so. */
  failOnCall(n: number, kind: Failure): void {
    this.onCall.set(this.accountCalls + n, kind);
  }

  /** /accounts calls answered so far. */
  get accountsCalls(): number {
    return this.accountCalls;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.base);
    const auth = req.headers.authorization === `Basic ${Buffer.from(`${this.user}:${this.password}`).toString('base64')}`;
    this.calls.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, authorized: auth });
    const claim = /^\/claim\/([0-9a-f]+)$/.exec(url.pathname);
    if (req.method === 'POST' && claim) return this.claim(claim[1], res);
    if (req.method === 'GET' && url.pathname === '/simplefin/accounts') {
      const n = ++this.accountCalls;
      const failure = this.onCall.get(n) ?? this.failures.shift();
      if (failure && (await this.failWith(failure, req, res))) return;
      if (!auth || this.revoked) return this.send(res, 403, 'text/plain', 'Forbidden');
      return this.send(res, 200, 'application/json', JSON.stringify(this.accountSet(url.searchParams)));
    }
    this.send(res, 404, 'text/plain', 'Not found');
  }

  private claim(token: string, res: ServerResponse): void {
    if (this.tokens.get(token) !== false) return this.send(res, 403, 'text/plain', 'Forbidden');
    this.tokens.set(token, true);
    this.send(res, 200, 'text/plain', this.accessUrl);
  }

  /** Answers as the failure says; false when the answer is to go on (a slow one, after its wait). */
  private async failWith(failure: Failure, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    if (failure === '429') this.send(res, 429, 'application/json', '{"errors":["Too many requests"]}', { 'retry-after': this.retryAfter });
    else if (failure === '500') this.send(res, 500, 'text/plain', 'Internal Server Error');
    else if (failure === 'malformed') this.send(res, 200, 'application/json', '{"errors": [], "accounts": [{"id": ');
    else if (failure === 'drop') req.socket.destroy();
    else {
      await new Promise((r) => setTimeout(r, this.slowMs));
      return false;
    }
    return true;
  }

  private accountSet(q: URLSearchParams) {
    const start = q.has('start-date') ? Number(q.get('start-date')) : -Infinity;
    const end = q.has('end-date') ? Number(q.get('end-date')) : Infinity;
    const wanted = q.getAll('account');
    const pending = q.get('pending') === '1';
    const balancesOnly = q.get('balances-only') === '1';
    const accounts = [...this.accounts.values()]
      .filter((a) => !wanted.length || wanted.includes(a.id))
      .map((a) => ({
        org: { domain: 'bank.example', name: 'Example Bank', 'sfin-url': `${this.base}/simplefin` },
        id: a.id,
        name: a.name,
        currency: a.currency,
        balance: a.balance,
        'balance-date': Math.floor(Date.now() / 1000),
        ...(balancesOnly
          ? {}
          : {
              transactions: a.transactions
                .filter((t) => (t.pending ? pending : true))
                .filter((t) => {
                  const at = t.posted || t.transacted_at || 0;
                  return at >= start && at < end;
                })
                .sort((x, y) => (x.posted || x.transacted_at || 0) - (y.posted || y.transacted_at || 0)),
            }),
      }));
    return { errors: [], accounts };
  }

  private send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'content-type': type, ...headers });
    res.end(body);
  }
}
