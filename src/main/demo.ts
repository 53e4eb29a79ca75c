// Realistic, deterministic demo books: the same slug and count give the same
// rows. Three years of bank-feed, payment-processor and manual rows whose
// descriptions match the ontology's counterparties and synonyms, many left
// uncategorized, in three accounts (bank, card, payment processor); receipts
// with OCR text (linked and not), notes.
import { createHash } from 'node:crypto';
import { Valuer } from './ledger/rates/valuer';
import { DemoSink } from './demo-sink';
import type { Ledger } from './ledger/core/sqlite/open';
import { bulkInsert } from './ledger/totals/bulk';
import { insertAccount } from './ledger/accounts/accounts';
import { type TransactionSource, type TransactionStatus } from './ledger/transactions/transactions';
import { chartRows } from './ledger/chart/categories';
import { deskActor } from './ledger/access/organizations';
import { addDays } from '../shared/dates';
import { categoryLine, type LineInput } from './ledger/transactions/lines';
import { transferLine } from './ledger/transfers/transfers';
import { categorizedLines, defaultTaxOf, taxedLines } from './ledger/tax/lines';
import { mapInOrder } from './ledger/core/in-order';

export const DEMO_START = '2023-07-01';
export const DEMO_DAYS = 1096; // 2023-07-01 .. 2026-06-30

interface Template {
  descriptions: string[];
  code: string;
  min: number; // minor units; negative = outflow
  max: number;
  source: TransactionSource;
  weight: number;
}

const TEMPLATES: Template[] = [
  { descriptions: ['AWS EMEA', 'Amazon Web Services', 'AWS EMEA aws.amazon.com'], code: '5300', min: -320000, max: -4000, source: 'bankfeed', weight: 8 },
  { descriptions: ['FIGMA.COM', 'Figma Professional plan'], code: '5100', min: -7500, max: -1500, source: 'bankfeed', weight: 5 },
  { descriptions: ['GOOGLE*WORKSPACE', 'Google Workspace subscription'], code: '5100', min: -14400, max: -1200, source: 'bankfeed', weight: 6 },
  { descriptions: ['STRIPE PAYOUT', 'Stripe Transfer'], code: '4000', min: 50000, max: 2500000, source: 'paymentproc', weight: 10 },
  { descriptions: ['Stripe charge subscription renewal', 'Stripe charge annual plan'], code: '4010', min: 2900, max: 49900, source: 'paymentproc', weight: 14 },
  { descriptions: ['WEWORK MEMBERSHIP', 'WeWork hot desk'], code: '5200', min: -250000, max: -45000, source: 'bankfeed', weight: 3 },
  { descriptions: ['Office rent Harbour St', 'Rent March office'], code: '5200', min: -420000, max: -180000, source: 'manual_csv', weight: 2 },
  { descriptions: ['UBER *TRIP', 'Lufthansa flight', 'Hotel stay - travel'], code: '5000', min: -90000, max: -1200, source: 'bankfeed', weight: 7 },
  { descriptions: ['Upwork contractor payment', 'Contractor invoice - design'], code: '5000', min: -600000, max: -20000, source: 'bankfeed', weight: 5 },
  { descriptions: ['Legal services Baker & Co', 'Accounting professional services'], code: '5000', min: -350000, max: -30000, source: 'manual_csv', weight: 2 },
  { descriptions: ['GITHUB.COM', 'Slack Technologies', 'Notion Labs SaaS'], code: '5100', min: -40000, max: -800, source: 'bankfeed', weight: 9 },
  { descriptions: ['Hetzner Online cloud', 'DigitalOcean cloud hosting'], code: '5300', min: -90000, max: -500, source: 'bankfeed', weight: 4 },
  { descriptions: ['Invoice payment ACME Corp', 'Customer payment Globex', 'Wire from Initech'], code: '4000', min: 100000, max: 4000000, source: 'manual_csv', weight: 4 },
];
const TOTAL_WEIGHT = TEMPLATES.reduce((a, t) => a + t.weight, 0);
const STATUSES: [TransactionStatus, number][] = [
  ['uncategorized', 34],
  ['matched', 33],
  ['reconciled', 22],
  ['receipt_missing', 8],
  ['agent_suggested', 3],
];

/** mulberry32: small, fast, deterministic. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hashSeed = (s: string): number => [...s].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0, 2166136261);

/**
 * A stream's mask for its ids. The generator above walks one cycle of 2^32 states, a seed being where it starts, so
 * the streams of two organizations overlap after a few hundred thousand draws (200 organizations of 10,000 rows drew
 * the same ids twice): each id is its draws masked with 128 bits of its own seed's hash.
 */
const idMask = (seed: string): number[] => {
  const digest = createHash('sha256').update(seed).digest();
  return [0, 4, 8, 12].map((at) => digest.readUInt32BE(at));
};

function uuidFrom(rand: () => number, mask: number[]): string {
  const hex = Array.from({ length: 4 }, (_, k) => ((Math.floor(rand() * 2 ** 32) ^ mask[k]) >>> 0).toString(16).padStart(8, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${'89ab'[parseInt(hex[16], 16) & 3]}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const pick = <T>(rand: () => number, items: T[]): T => items[Math.floor(rand() * items.length)];
function weighted<T>(rand: () => number, items: [T, number][]): T {
  let r = rand() * items.reduce((a, [, w]) => a + w, 0);
  for (const [item, w] of items) if ((r -= w) < 0) return item;
  return items[items.length - 1][0];
}

export interface DemoResult {
  transactions: number;
  receipts: number;
  notes: number;
  accounts: number;
}

const DEMO_ACCOUNTS = [
  { name: 'Operating account', type: 'checking', openingBalance: 25_000, maskedNumber: '****4821' },
  { name: 'Company card', type: 'credit_card', openingBalance: 0, maskedNumber: '****0057' },
  { name: 'Stripe balance', type: 'payment_processor', openingBalance: 0, maskedNumber: null },
] as const;

/** The demo's accounts (made once per organization): payouts to the processor's balance, a third of the SaaS and cloud bills to the card, the rest to the bank. */
async function demoAccounts(ledger: Ledger, orgSeq: number, currency: string): Promise<{ bank: number; card: number; processor: number; created: number }> {
  let created = 0;
  const [bank, card, processor] = await mapInOrder(DEMO_ACCOUNTS, async (a) => {
    const found = (await ledger.stmt('SELECT seq FROM accounts WHERE org_seq = ? AND name = ? AND currency = ?').get(orgSeq, a.name, currency)) as { seq: number } | undefined;
    if (found) return found.seq;
    created++;
    return ledger.write(async () => (await insertAccount(ledger, orgSeq, deskActor(), { ...a, currency, openingDate: '2023-06-30' })).seq);
  });
  return { bank, card, processor, created };
}

interface DemoContext {
  rand: () => number;
  /** The ids' mask (idMask). */
  mask: number[];
  count: number;
  currency: string;
  accounts: { bank: number; card: number; processor: number };
  /** The chart's categories by code (their identity). */
  categories: Map<string, number>;
  /** The last day's date text: a million rows share 1,096 days. */
  day: { index: number; date: string };
}

/** Row `i` of `count`, drawn in a fixed order of random calls (the same slug gives the same books). */
function demoRow(ctx: DemoContext, i: number) {
  const { rand, count, currency, accounts } = ctx;
  let r = rand() * TOTAL_WEIGHT;
  const tpl = TEMPLATES.find((t) => (r -= t.weight) < 0) ?? TEMPLATES[0];
  // Rows arrive in date order, as bank feeds do (and as the indexes like best).
  const day = Math.floor((i * DEMO_DAYS) / count);
  if (day !== ctx.day.index) ctx.day = { index: day, date: addDays(DEMO_START, day) };
  const date = ctx.day.date;
  const amountMinor = Math.round(tpl.min + rand() * (tpl.max - tpl.min));
  const base = pick(rand, tpl.descriptions);
  const ref = rand() < 0.5 ? ` ${Math.floor(rand() * 900000 + 100000)}` : '';
  const status = weighted(rand, STATUSES);
  const source: TransactionSource = rand() < 0.1 ? 'manual_csv' : tpl.source;
  const categorySeq = status === 'uncategorized' ? null : (ctx.categories.get(tpl.code) ?? null);
  const id = uuidFrom(rand, ctx.mask);
  const externalId = source === 'manual_csv' ? null : `${source === 'bankfeed' ? 'bf' : 'pp'}_${id.slice(0, 8)}`;
  const cardBill = source === 'bankfeed' && (tpl.code === '5100' || tpl.code === '5300') && i % 3 === 0;
  const accountSeq = source === 'paymentproc' ? accounts.processor : cardBill ? accounts.card : accounts.bank;
  // The facts each status is a view of (status.ts).
  const reconciled = status === 'reconciled' ? 1 : 0;
  const receiptNeeded = status === 'receipt_missing' ? 1 : 0;
  const row = { id, accountSeq, date, amountMinor, currency, description: `${base}${ref}`, categorySeq, source, externalId, reconciled, receiptNeeded, status };
  return { row, base, ref };
}

const RECEIPT_EVERY = 20;
const NOTE_EVERY = 50;
const CREATED_AT = '2026-07-01T09:00:00.000Z';

/** Books with more of double entry in them (the benchmark's): every `splitEvery`th categorized row split in two, pairs of every `transferEvery` rows a card payment from the bank, matched. */
export interface DemoShape {
  splitEvery?: number;
  transferEvery?: number;
  /** Categorized rows taxed at their categories' default codes (issue 28): net and tax lines. */
  tax?: boolean;
}

/** The benchmark's books: a fifth split, one in twenty a transfer. */
export const BENCH_SHAPE: DemoShape = { splitEvery: 5, transferEvery: 20 };

/** Row i's lines, when the shape makes it a split or a side of a transfer (the random draws stay the same either way). */
type DemoRow = ReturnType<typeof demoRow>['row'];
type Shaped = DemoRow & { lines?: LineInput[]; pairedWith?: number };
async function shapedLines(ledger: Ledger, ctx: DemoContext, shape: DemoShape, i: number, row: DemoRow, previous: { seq: number; amountMinor: number } | null): Promise<Shaped> {
  const { transferEvery: te, splitEvery: se } = shape;
  if (te && i % te === 0) {
    const amountMinor = -Math.abs(row.amountMinor);
    return { ...row, accountSeq: ctx.accounts.bank, amountMinor, categorySeq: null, lines: [transferLine(ctx.accounts.card, amountMinor, null)] };
  }
  if (te && i % te === 1 && previous !== null) {
    const amountMinor = -previous.amountMinor;
    return { ...row, accountSeq: ctx.accounts.card, amountMinor, categorySeq: null, lines: [transferLine(ctx.accounts.bank, amountMinor, previous.seq)], pairedWith: previous.seq };
  }
  if (se && row.categorySeq !== null && i % se === 2 && Math.abs(row.amountMinor) >= 2) {
    const part = Math.trunc(row.amountMinor * 0.6);
    const shared = ctx.categories.get('5000')!;
    if (shape.tax) {
      const parts = [
        { categorySeq: row.categorySeq, grossMinor: part, taxCodeSeq: await defaultTaxOf(ledger, row.categorySeq) },
        { categorySeq: shared, grossMinor: row.amountMinor - part, memo: 'shared', taxCodeSeq: await defaultTaxOf(ledger, shared) },
      ];
      return { ...row, lines: await taxedLines(ledger, row.date, parts) };
    }
    return { ...row, lines: [categoryLine(row.categorySeq, part), categoryLine(shared, row.amountMinor - part, 'shared')] };
  }
  return shape.tax && row.categorySeq !== null ? { ...row, lines: await categorizedLines(ledger, row.date, row.categorySeq, row.amountMinor) } : row;
}

export async function fillDemo(ledger: Ledger, orgSeq: number, slug: string, count: number, currency: string, shape: DemoShape = {}): Promise<DemoResult> {
  const { existing } = (await ledger.stmt('SELECT count(*) AS existing FROM transactions WHERE org_seq = ?').get(orgSeq)) as { existing: number };
  const seed = `${slug}:${existing}`;
  const rand = prng(hashSeed(seed));
  const accounts = await demoAccounts(ledger, orgSeq, currency);
  const ctx: DemoContext = {
    rand,
    mask: idMask(seed),
    count,
    currency,
    accounts,
    categories: new Map((await chartRows(ledger, orgSeq)).map((c) => [c.code, c.seq])),
    day: { index: -1, date: '' },
  };
  const valuer = new Valuer(ledger, orgSeq);
  let lastTransfer: { seq: number; amountMinor: number } | null = null;
  let receipts = 0;
  let notes = 0;
  const CHUNK = 100_000;
  for (let done = 0; done < count; done = Math.min(count, done + CHUNK)) {
    const upto = Math.min(count, done + CHUNK);
    await bulkInsert(ledger, async (track) => {
      const sink = await DemoSink.open(ledger, orgSeq, track);
      for (let i = done; i < upto; i++) {
        const { row: drawn, base, ref } = demoRow(ctx, i);
        const { pairedWith, ...row } = await shapedLines(ledger, ctx, shape, i, drawn, lastTransfer);
        const status = row.lines || row.status !== 'agent_suggested' ? undefined : row.status;
        // Valued by one Valuer (the base currency read once), not a lookup per row.
        const seq = await sink.row({ ...row, origin: 'feed', createdAt: CREATED_AT, status, baseMinor: await valuer.value(row.amountMinor, row.currency, row.date) });
        if (pairedWith !== undefined) await sink.pair(seq, pairedWith);
        lastTransfer = shape.transferEvery && i % shape.transferEvery === 0 && i + 1 < upto ? { seq, amountMinor: row.amountMinor } : null;
        if (i % RECEIPT_EVERY === 7) {
          const linked = rand() < 0.7;
          const fileName = `${base.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase()}-${row.date}.pdf`;
          const ocr = `${base.toUpperCase()} Invoice${ref || ' 100001'} Date ${row.date} Total ${currency} ${(Math.abs(row.amountMinor) / 100).toFixed(2)} Thank you for your business`;
          await sink.receipts.add(uuidFrom(rand, ctx.mask), orgSeq, linked ? seq : null, fileName, 'application/pdf', 20_000 + Math.floor(rand() * 180_000), ocr, CREATED_AT);
          receipts++;
        }
        if (i % NOTE_EVERY === 11) {
          await sink.notes.add(uuidFrom(rand, ctx.mask), orgSeq, seq, pick(rand, NOTE_TEXTS), 'local-user', CREATED_AT);
          notes++;
        }
      }
      await sink.finish();
    });
  }
  return { transactions: count, receipts, notes, accounts: accounts.created };
}

const NOTE_TEXTS = [
  'Checked against the monthly statement.',
  'Client asked to split this across two projects.',
  'Receipt requested from the vendor by email.',
  'Annual plan, prepaid for twelve months.',
  'Refund expected next month.',
];
