// Unit tests of the pure modules that have none of their own elsewhere: the
// proposal kinds' change keys, the loopback guard, a description's shape, the
// statement readers' sniffing, free names and calendar days, the transfer
// sides' pairing. (Money and typed
// amounts: amounts.test.ts; each reader's rows: statements.test.ts.)
import { describe, expect, it } from 'vitest';
import type { NextFunction, Request, Response } from 'express';
import { loopbackGuard } from '../src/main/api/guards';
import { LedgerError } from '../src/main/ledger/core/errors';
import { freeName } from '../src/main/ledger/core/text';
import { changeKeyOf } from '../src/main/ledger/proposals/proposals';
import { KINDS } from '../src/main/ledger/proposals/kinds';
import { descriptionShape } from '../src/main/ledger/transactions/shape';
import { READERS } from '../src/main/statements/readers';
import { addDays, dayBefore } from '../src/shared/dates';
import { SidePool, TRANSFER_WINDOW_DAYS } from '../src/main/ledger/transfers/candidates';
import { StatementRows } from '../src/main/statements/rows';

describe('change keys', () => {
  const id = '00000000-0000-4000-8000-000000000001';
  const cat = (categoryCode: string) => ({ transactionId: id, categoryCode, category: categoryCode, evidence: [] });
  const note = (content: string) => ({ transactionId: id, content });
  const entry = { date: '2026-03-01', amount: -1250, currency: 'EUR', categoryCode: '5100', category: 'Software', source: 'manual_csv', description: 'Stamps' } as const;

  it('are equal for the same change and differ for another change or another row', () => {
    expect(changeKeyOf('categorization', cat('5100'), 7)).toBe(changeKeyOf('categorization', { ...cat('5100'), evidence: [{ type: 'keyword', value: 'x' }] }, 7));
    expect(changeKeyOf('categorization', cat('5100'), 7)).not.toBe(changeKeyOf('categorization', cat('5200'), 7));
    expect(changeKeyOf('categorization', cat('5100'), 7)).not.toBe(changeKeyOf('categorization', cat('5100'), 70));
    expect(changeKeyOf('note', note('a'), 7)).not.toBe(changeKeyOf('note', note('b'), 7));
    expect(changeKeyOf('journal_entry', entry, null)).toBe(changeKeyOf('journal_entry', { ...entry }, null));
    expect(changeKeyOf('journal_entry', entry, null)).not.toBe(changeKeyOf('journal_entry', { ...entry, amount: -1251 }, null));
  });

  it('never collide across kinds, and sort by row (the target is zero-padded)', () => {
    const keys = [changeKeyOf('categorization', cat('x'), 1), changeKeyOf('note', note('x'), 1), changeKeyOf('receipt_link', { transactionId: id, receiptId: 'x' }, 1)];
    expect(new Set(keys).size).toBe(3);
    expect(changeKeyOf('note', note('x'), 9) < changeKeyOf('note', note('x'), 10)).toBe(true);
  });

  it('are written by every kind in the list, one module each', () => {
    expect(KINDS.map((k) => k.type).sort()).toEqual(['categorization', 'journal_entry', 'note', 'receipt_link']);
  });
});

describe('the loopback guard', () => {
  const run = (headers: Record<string, string>, port = 4100) => {
    const set: Record<string, string> = {};
    let passed: unknown = 'not called';
    const next: NextFunction = (error?: unknown) => void (passed = error);
    loopbackGuard(() => port)({ headers } as Request, { setHeader: (k: string, v: string) => void (set[k] = v) } as unknown as Response, next);
    return { error: passed as LedgerError | undefined, set };
  };

  it('lets through this server by each loopback name, in any case, and sets the headers every answer carries', () => {
    for (const host of ['127.0.0.1:4100', 'localhost:4100', '[::1]:4100', 'LocalHost:4100']) expect(run({ host }).error).toBeUndefined();
    expect(run({ host: '127.0.0.1:4100', origin: 'http://127.0.0.1:4100' }).error).toBeUndefined();
    expect(run({ host: '127.0.0.1:4100' }).set).toEqual({ 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer' });
  });

  it('refuses another host, another port, no host, and a foreign origin, each by its code', () => {
    expect(run({ host: 'evil.example:4100' }).error?.code).toBe('forbidden_host');
    expect(run({ host: '127.0.0.1:4101' }).error?.code).toBe('forbidden_host');
    expect(run({}).error?.code).toBe('forbidden_host');
    expect(run({ host: '127.0.0.1:4100', origin: 'http://evil.example' }).error?.code).toBe('forbidden_origin');
    expect(run({ host: '127.0.0.1:4100', origin: 'http://127.0.0.1:4101' }).error?.code).toBe('forbidden_origin');
    expect(run({ host: '127.0.0.1:4100', origin: 'null' }).error?.code).toBe('forbidden_origin');
  });

  it('reads the port per request (a server started on port 0 learns it later)', () => {
    let port = 0;
    const guard = loopbackGuard(() => port);
    const errors: unknown[] = [];
    const res = { setHeader: () => undefined } as unknown as Response;
    guard({ headers: { host: '127.0.0.1:5000' } } as Request, res, (e?: unknown) => void errors.push(e));
    port = 5000;
    guard({ headers: { host: '127.0.0.1:5000' } } as Request, res, (e?: unknown) => void errors.push(e));
    expect(errors.map((e) => (e as LedgerError | undefined)?.code)).toEqual(['forbidden_host', undefined]);
  });
});

describe('a description shape', () => {
  it('writes each digit as # and keeps everything else', () => {
    expect(descriptionShape('CARD 4821 12/03 AWS EMEA')).toBe('CARD #### ##/## AWS EMEA');
    expect(descriptionShape('Miete März')).toBe('Miete März');
    expect(descriptionShape('٣ Arabic-Indic digits stay')).toBe('٣ Arabic-Indic digits stay');
  });
});

describe('statement readers', () => {
  const sniffed = (text: string, name: string) => READERS.map((r) => r.sniff(text, name)).find((f) => f !== null) ?? null;

  it('tell each format from its first bytes, whatever the file is called', () => {
    expect(sniffed('OFXHEADER:100\nDATA:OFXSGML\n<OFX>', 'x.txt')).toBe('ofx');
    expect(sniffed('<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">', 'x.xml')).toBe('camt053');
    expect(sniffed('!Type:Bank\nD1/5/24\nT-10.00\n^', 'x.txt')).toBe('qif');
    expect(sniffed(':20:STARTUMS\n:25:12345678/0001234567\n:28C:1/1\n', 'x.sta')).toBe('mt940');
    expect(sniffed('Date,Amount,Description\n2026-01-02,-5,Fee\n', 'x.csv')).toBe('csv');
  });

  it('are one entry per format family, CSV last (it reads what the others do not recognise)', () => {
    expect(READERS.at(-1)?.formats).toContain('csv');
    const formats = READERS.flatMap((r) => r.formats);
    expect(new Set(formats).size).toBe(formats.length);
  });
});

describe('free names and calendar days', () => {
  it('numbers a taken name from 2, in the style asked for', () => {
    const taken = new Set(['Operating', 'Operating (2)']);
    expect(freeName('Operating', (n) => taken.has(n))).toBe('Operating (3)');
    expect(freeName('Savings', (n) => taken.has(n))).toBe('Savings');
    expect(
      freeName(
        'rule',
        (n) => n === 'rule',
        (n) => `-${n}`,
      ),
    ).toBe('rule-2');
  });

  it('moves across month, year and leap day in UTC', () => {
    expect(dayBefore('2024-03-01')).toBe('2024-02-29');
    expect(dayBefore('2026-01-01')).toBe('2025-12-31');
    expect(addDays('2023-07-01', 1095)).toBe('2026-06-30');
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30');
  });
});

describe('rows to import in date order', () => {
  it('keeps a file in order, turns a newest-first one around by day, and sorts one in no order stably', async () => {
    const { inDateOrder } = await import('../src/main/ledger/imports/apply');
    const at = (dates: string[]) => Array.from(inDateOrder(Int32Array.from(dates.keys()), dates));
    expect(at(['2026-01-01', '2026-01-01', '2026-01-02'])).toEqual([0, 1, 2]);
    expect(at(['2026-01-03', '2026-01-02', '2026-01-02', '2026-01-01'])).toEqual([3, 1, 2, 0]);
    expect(at(['2026-01-02', '2026-01-01', '2026-01-03', '2026-01-01'])).toEqual([1, 3, 0, 2]);
  });
});

describe('transfer sides', () => {
  const side = (seq: number, account_seq: number, date: string, amount_minor: number, extra: { currency?: string; to_account?: number | null } = {}) => ({
    seq,
    account_seq,
    date,
    amount_minor,
    currency: extra.currency ?? 'USD',
    to_account: extra.to_account ?? null,
  });

  it('pairs opposite amounts of other accounts within the window, closest date first, then the older row', () => {
    const day = '2026-03-10';
    const pool = new SidePool([
      side(1, 2, addDays(day, TRANSFER_WINDOW_DAYS + 1), 500), // a day too late
      side(2, 2, addDays(day, -TRANSFER_WINDOW_DAYS), 500), // the window's first day
      side(3, 2, addDays(day, TRANSFER_WINDOW_DAYS), 500), // its last
      side(4, 2, addDays(day, 1), 500),
      side(5, 2, addDays(day, -1), 500),
      side(6, 1, day, 500), // the row's own account
      side(7, 2, day, 500, { currency: 'EUR' }),
      side(8, 2, day, 400),
      side(9, 2, day, 500, { to_account: 3 }), // in transit to another account
      side(10, 2, day, 500, { to_account: 1 }),
      side(11, 2, addDays(day, -TRANSFER_WINDOW_DAYS - 1), 500),
    ]);
    expect(pool.partnersOf(side(0, 1, day, -500)).map((s) => s.seq)).toEqual([10, 4, 5, 2, 3]);
    expect(pool.partnersOf(side(0, 1, day, -500, { to_account: 3 }))).toEqual([]);
    expect(pool.partnersOf(side(0, 1, day, -123))).toEqual([]);
    expect(pool.partnersOf(side(0, 1, day, 0))).toEqual([]);
  });
});

describe('a statement’s rows', () => {
  it('let go of the amounts’ text for an import that read them once, and refuse to be read whole after', () => {
    const rows = new StatementRows();
    rows.add(0, 2, '2026-01-05', '-12.50', 'COFFEE', null);
    expect(rows.at(0)).toEqual({ section: 0, line: 2, date: '2026-01-05', amount: '-12.50', description: 'COFFEE', externalId: null });
    rows.dropAmountText();
    expect([rows.amount.length, rows.length, rows.description.at(0)]).toEqual([0, 1, 'COFFEE']);
    expect(() => rows.at(0)).toThrow('amounts were let go');
  });
});
