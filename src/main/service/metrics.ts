// Prometheus metrics (issue 51), loaded only when asked for (LEDGERDESK_METRICS_LISTEN
// or serve --metrics-listen): prom-client never loads otherwise. They are served on
// a listener of their own, apart from the people's and agents' port (a reverse
// proxy or a published port exposes that one; the scraper reaches this one on the
// inside), optionally behind a bearer token (LEDGERDESK_METRICS_TOKEN). They hold
// counts and timings, never an organization's name or a figure from the books.
import { timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import client from 'prom-client';
import { COUNTED, watchCounted, type Counted } from '../ledger/core/events';
import type { Ledger } from '../ledger/core/storage';
import type { PostgresLedger } from '../ledger/core/postgres/driver';

export interface MetricsOptions {
  ledger: Ledger;
  listen: { host: string; port: number };
  /** When set, a scrape must send `Authorization: Bearer <token>`. */
  token?: string;
}

export interface Metrics {
  /** One request answered: its method, route template (service/routes.ts), status and duration. */
  observe(method: string, route: string, status: number, seconds: number): void;
  /** Where the scraper reaches them: http://host:port/metrics. */
  url: string;
  close(): Promise<void>;
}

/** Request durations, from a cached read (~1 ms) to a large export (seconds). */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

function register(ledger: Ledger): { registry: client.Registry; requests: client.Counter; durations: client.Histogram; unwatch: () => void } {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const requests = new client.Counter({
    name: 'ledgerdesk_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const durations = new client.Histogram({
    name: 'ledgerdesk_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route template',
    labelNames: ['method', 'route'],
    buckets: BUCKETS,
    registers: [registry],
  });
  if (ledger.engine === 'postgres') {
    const pool = (ledger as PostgresLedger).pool;
    // Read at each scrape: connections open, lent to a request, and requests waiting for one.
    new client.Gauge({
      name: 'ledgerdesk_db_pool_connections',
      help: "The PostgreSQL pool's connections open",
      registers: [registry],
      collect() {
        this.set(pool.totalCount);
      },
    });
    new client.Gauge({
      name: 'ledgerdesk_db_pool_in_use',
      help: "The PostgreSQL pool's connections in use",
      registers: [registry],
      collect() {
        this.set(pool.totalCount - pool.idleCount);
      },
    });
    new client.Gauge({
      name: 'ledgerdesk_db_pool_waiting',
      help: 'Queries waiting for a PostgreSQL connection',
      registers: [registry],
      collect() {
        this.set(pool.waitingCount);
      },
    });
  }
  // One counter per counted event (ledger/core/events.ts): a new event there is a new counter here, nothing else.
  const counters = new Map<string, client.Counter>();
  for (const [name, { help, labels }] of Object.entries(COUNTED))
    counters.set(name, new client.Counter({ name: `ledgerdesk_${name}_total`, help, labelNames: [...labels], registers: [registry] }));
  const unwatch = watchCounted((name: Counted, labels) => counters.get(name)?.inc(labels));
  return { registry, requests, durations, unwatch };
}

const sameSecret = (given: string, token: string): boolean => {
  const a = Buffer.from(given);
  const b = Buffer.from(`Bearer ${token}`);
  return a.length === b.length && timingSafeEqual(a, b);
};

export async function startMetrics(options: MetricsOptions): Promise<Metrics> {
  const { registry, requests, durations, unwatch } = register(options.ledger);
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) return void res.writeHead(404).end();
    if (options.token && !sameSecret(req.headers.authorization ?? '', options.token)) return void res.writeHead(401, { 'WWW-Authenticate': 'Bearer' }).end();
    registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' }).end(req.method === 'HEAD' ? undefined : text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.listen.port, options.listen.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const host = options.listen.host.includes(':') ? `[${options.listen.host}]` : options.listen.host;
  return {
    observe(method, route, status, seconds) {
      requests.inc({ method, route, status: String(status) });
      durations.observe({ method, route }, seconds);
    },
    url: `http://${host}:${port}/metrics`,
    close: () =>
      new Promise<void>((done) => {
        unwatch();
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
