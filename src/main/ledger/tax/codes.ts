// Tax codes (issue 28): per organization, each with its kind, the side of the
// books it is offered on, the return boxes it feeds, the recoverable share of
// input tax, and a rate history (the rate of a day is the latest one starting
// on or before it). Ready-made sets are data (db/tax-sets.json); setting one
// up adds the codes it lacks and never changes the person's own. Every change
// is the person's, audited.
import sets from '../../../../db/tax-sets.json';
import { TAX_APPLIES, TAX_KINDS, type TaxApplies, type TaxKind } from '../../../../db/values';
import { appendAudit, type Human } from '../access/audit';
import { organizationBySeq } from '../access/organizations';
import { giveTemplateTaxCodes } from '../chart/templates';
import { nowIso } from '../core/clock';
import type { Ledger } from '../core/sqlite/open';
import { invalid, LedgerError, notFound } from '../core/errors';
import { mapInOrder } from '../core/in-order';

export { TAX_APPLIES, TAX_KINDS, type TaxApplies, type TaxKind };

/** Where a code's figures go on the return: a box, for sales or purchases, its net, tax or gross amount. */
export interface TaxBox {
  box: string;
  side: 'sales' | 'purchases';
  measure: 'net' | 'tax' | 'gross';
}

export interface TaxSetBox {
  box: string;
  title: string;
  /** A box that is the sum of others ("-4": less box 4). */
  sum?: string[];
}

/** The tax office's limit on the corrections of earlier returns one return may include (issue 43). */
export interface CorrectionThreshold {
  source: string;
  /** Which net value of the corrections counts: its size either way, or only tax owed (the ATO's debit errors). */
  direction: 'both' | 'owed';
  /** In the organization's currency, as written ("10000"). */
  limit: string;
  /** The limit is the greater of `limit` and this share of a box of the correcting return, at most `cap`. */
  shareOfBox?: { box: string; percent: string; cap: string };
  /** Whether the limit itself may still be included (HMRC: "10,000 or less"; the ATO: "under 16,000"). */
  limitIncluded: boolean;
  message: string;
}

interface TaxSet {
  name: string;
  source: string;
  boxes: TaxSetBox[];
  /** Absent: the set knows no limit (plain). */
  correctionThreshold?: CorrectionThreshold;
  codes: { code: string; name: string; kind: TaxKind; applies: TaxApplies; rates: { from: string; rate: string }[]; boxes: TaxBox[] }[];
}

export const TAX_SETS = sets as unknown as Record<string, TaxSet>;
export const TAX_SET_NAMES = Object.keys(TAX_SETS);

/** The beginning of time for a rate that always held. */
export const ALWAYS = '0001-01-01';

export interface TaxCode {
  code: string;
  name: string;
  kind: TaxKind;
  applies: TaxApplies;
  boxes: TaxBox[];
  recoverablePercent: number;
  /** Its rates, oldest first: `rate` in percent (up to four decimals). */
  rates: { from: string; rate: number }[];
  /** The rate in force today. */
  rate: number;
  archived: boolean;
}

interface TaxCodeRow {
  seq: number;
  code: string;
  name: string;
  kind: TaxKind;
  applies: TaxApplies;
  boxes: string;
  recoverable_percent: number;
  archived_at: string | null;
}

/** A percent as typed ("20", "5.5", "0.0125") in ten-thousandths, exactly; more than four decimals is refused. */
export function rateE4Of(text: string | number, field = 'rate'): number {
  const written = typeof text === 'number' ? String(text) : text.trim();
  const m = /^(\d{1,3})(?:\.(\d{1,4}))?$/.exec(written);
  const value = m ? Number(m[1]) * 10_000 + Number((m[2] ?? '').padEnd(4, '0')) : NaN;
  if (!m || value > 1_000_000) throw invalid([{ field, message: `"${written}" is not a percent from 0 to 100 with at most four decimals (20, 5.5, 0.0125)` }]);
  return value;
}

const percentOf = (e4: number): number => e4 / 10_000;

const codeRows = (ledger: Ledger, orgSeq: number): Promise<TaxCodeRow[]> =>
  ledger.rows<TaxCodeRow>(
    'SELECT seq, code, name, kind, applies, boxes, recoverable_percent, archived_at FROM tax_codes WHERE org_seq = ? ORDER BY archived_at IS NOT NULL, code',
    orgSeq,
  );

async function ratesOf(ledger: Ledger, seq: number): Promise<{ from: string; rate: number }[]> {
  return (await ledger.rows<{ valid_from: string; rate_e4: number }>('SELECT valid_from, rate_e4 FROM tax_rates WHERE tax_code_seq = ? ORDER BY valid_from', seq)).map((r) => ({
    from: r.valid_from,
    rate: percentOf(r.rate_e4),
  }));
}

async function toTaxCode(ledger: Ledger, row: TaxCodeRow, today = nowIso().slice(0, 10)): Promise<TaxCode> {
  const rates = await ratesOf(ledger, row.seq);
  return {
    code: row.code,
    name: row.name,
    kind: row.kind,
    applies: row.applies,
    boxes: JSON.parse(row.boxes) as TaxBox[],
    recoverablePercent: row.recoverable_percent,
    rates,
    rate: rates.filter((r) => r.from <= today).at(-1)?.rate ?? 0,
    archived: row.archived_at !== null,
  };
}

export const listTaxCodes = async (ledger: Ledger, orgSeq: number): Promise<TaxCode[]> => await mapInOrder(await codeRows(ledger, orgSeq), (r) => toTaxCode(ledger, r));

const findTaxCode = async (ledger: Ledger, orgSeq: number, code: string): Promise<TaxCodeRow | undefined> =>
  (
    await ledger.rows<TaxCodeRow>(
      'SELECT seq, code, name, kind, applies, boxes, recoverable_percent, archived_at FROM tax_codes WHERE org_seq = ? AND lower(code) = lower(?)',
      orgSeq,
      code.trim(),
    )
  )[0];

export async function requireTaxCode(ledger: Ledger, orgSeq: number, code: string, field = 'taxCode'): Promise<TaxCodeRow> {
  const row = await findTaxCode(ledger, orgSeq, code);
  if (!row) throw new LedgerError('not_found', `"${code}" is not a tax code of this organization (ledgerdesk tax code list).`, { resource: 'tax code', field, id: code });
  return row;
}

/** A code a line may take now (not archived), as the organization writes it: a code it cannot take is a bad field (400), naming it. */
export async function usableTaxCodeRow(ledger: Ledger, orgSeq: number, code: string, field = 'taxCode'): Promise<TaxCodeRow> {
  const row = await findTaxCode(ledger, orgSeq, code);
  if (!row) throw invalid([{ field, message: `"${code}" is not a tax code of this organization (ledgerdesk tax code list)` }]);
  if (row.archived_at) throw invalid([{ field, message: `tax code ${row.code} is archived: choose another` }]);
  return row;
}

/** The seq of a code a line may take now (usableTaxCodeRow). */
export const usableTaxCode = async (ledger: Ledger, orgSeq: number, code: string, field = 'taxCode'): Promise<number> => (await usableTaxCodeRow(ledger, orgSeq, code, field)).seq;

/** The rate of a code on a date (its tax date), in ten-thousandths of a percent. */
export async function rateOn(ledger: Ledger, taxCodeSeq: number, date: string): Promise<number> {
  return (
    ((await ledger.stmt('SELECT rate_e4 FROM tax_rates WHERE tax_code_seq = ? AND valid_from <= ? ORDER BY valid_from DESC LIMIT 1').pluck().get(taxCodeSeq, date)) as
      number | undefined) ?? 0
  );
}

export interface NewTaxCode {
  code: string;
  name?: string;
  kind: TaxKind;
  applies?: TaxApplies;
  rate: string | number;
  from?: string;
  boxes?: TaxBox[];
  recoverablePercent?: number;
}

async function insertCode(ledger: Ledger, orgSeq: number, c: NewTaxCode & { rates?: { from: string; rate: string }[] }): Promise<number> {
  const code = c.code.trim();
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,19}$/.test(code)) throw invalid([{ field: 'code', message: 'is 1-20 letters, digits, dots, dashes or underscores (S, GST, R5)' }]);
  if (await ledger.stmt('SELECT 1 FROM tax_codes WHERE org_seq = ? AND lower(code) = lower(?)').get(orgSeq, code)) {
    throw new LedgerError('conflict', `Tax code "${code}" already exists in this organization.`, { field: 'code', code });
  }
  const recoverable = c.recoverablePercent ?? 100;
  if (!(recoverable >= 0 && recoverable <= 100)) throw invalid([{ field: 'recoverablePercent', message: 'is a percent from 0 to 100' }]);
  const rates = c.rates ?? [{ from: c.from ?? ALWAYS, rate: String(c.rate) }];
  const e4s = rates.map((r) => rateE4Of(r.rate));
  const seq = Number(
    await ledger
      .stmt('INSERT INTO tax_codes (org_seq, code, name, kind, applies, boxes, recoverable_percent, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .insert(orgSeq, code, c.name?.trim() || code, c.kind, c.applies ?? 'both', JSON.stringify(c.boxes ?? []), recoverable, nowIso()),
  );
  for (const [i, r] of rates.entries())
    await ledger.stmt('INSERT INTO tax_rates (org_seq, tax_code_seq, valid_from, rate_e4) VALUES (?, ?, ?, ?)').run(orgSeq, seq, r.from, e4s[i]);
  return seq;
}

/** Sets an organization up with a ready-made set: the codes it lacks are added (the person's own stay as they are). */
export async function setupTaxSet(ledger: Ledger, orgSeq: number, actor: Human, set: string): Promise<{ set: string; added: string[]; codes: TaxCode[] }> {
  const chosen = TAX_SETS[set];
  if (!chosen) throw invalid([{ field: 'set', message: `is one of ${TAX_SET_NAMES.join(', ')}` }]);
  return ledger.write(async () => {
    const have = new Set((await codeRows(ledger, orgSeq)).map((r) => r.code.toLowerCase()));
    const added = chosen.codes.filter((c) => !have.has(c.code.toLowerCase()));
    for (const c of added) await insertCode(ledger, orgSeq, { ...c, rate: 0 });
    await ledger.stmt('UPDATE organizations SET tax_set = ? WHERE seq = ?').run(set, orgSeq);
    const org = await organizationBySeq(ledger, orgSeq);
    const given = await giveTemplateTaxCodes(ledger, orgSeq, org.chartTemplate);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'tax.setup',
      targetType: 'organization',
      targetId: org.id,
      summary: `Tax set up as ${chosen.name}: ${added.length ? `added ${added.map((c) => c.code).join(', ')}` : 'every code was already there'}${given ? `; ${given} categories of its chart took their default codes` : ''}`,
    });
    return { set, added: added.map((c) => c.code), codes: await listTaxCodes(ledger, orgSeq) };
  });
}

export async function addTaxCode(ledger: Ledger, orgSeq: number, actor: Human, input: NewTaxCode): Promise<TaxCode> {
  return ledger.write(async () => {
    const seq = await insertCode(ledger, orgSeq, input);
    const made = await toTaxCode(
      ledger,
      (await ledger.rows<TaxCodeRow>('SELECT seq, code, name, kind, applies, boxes, recoverable_percent, archived_at FROM tax_codes WHERE seq = ?', seq))[0],
    );
    await appendAudit(ledger, orgSeq, actor, {
      action: 'tax.code_added',
      targetType: 'tax_code',
      targetId: made.code,
      summary: `Tax code ${made.code} added: ${made.name}, ${made.kind}, ${input.rate}% from ${input.from ?? 'always'}, ${made.applies}`,
    });
    return made;
  });
}

/** A new rate from a date on (the same date again replaces that step). */
export async function setTaxRate(ledger: Ledger, orgSeq: number, actor: Human, code: string, from: string, rate: string | number): Promise<TaxCode> {
  return ledger.write(async () => {
    const row = await requireTaxCode(ledger, orgSeq, code, 'code');
    const e4 = rateE4Of(rate);
    // The same date again replaces that step (a delete and an insert: a server's key leads with the organization).
    await ledger.stmt('DELETE FROM tax_rates WHERE tax_code_seq = ? AND valid_from = ?').run(row.seq, from);
    await ledger.stmt('INSERT INTO tax_rates (org_seq, tax_code_seq, valid_from, rate_e4) VALUES (?, ?, ?, ?)').run(orgSeq, row.seq, from, e4);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'tax.rate_set',
      targetType: 'tax_code',
      targetId: row.code,
      summary: `Tax code ${row.code}: ${percentOf(e4)}% from ${from}`,
    });
    return toTaxCode(ledger, row);
  });
}

/** No longer offered; kept for the lines that have it. */
export async function archiveTaxCode(ledger: Ledger, orgSeq: number, actor: Human, code: string): Promise<TaxCode> {
  return ledger.write(async () => {
    const row = await requireTaxCode(ledger, orgSeq, code, 'code');
    if (row.archived_at) return toTaxCode(ledger, row);
    await ledger.stmt('UPDATE tax_codes SET archived_at = ? WHERE seq = ?').run(nowIso(), row.seq);
    await ledger.stmt('UPDATE categories SET default_tax_code_seq = NULL WHERE default_tax_code_seq = ?').run(row.seq);
    await appendAudit(ledger, orgSeq, actor, { action: 'tax.code_archived', targetType: 'tax_code', targetId: row.code, summary: `Tax code ${row.code} archived (${row.name})` });
    return toTaxCode(ledger, { ...row, archived_at: nowIso() });
  });
}

/** A category's default tax code (null: none). */
export async function setCategoryTax(
  ledger: Ledger,
  orgSeq: number,
  actor: Human,
  categoryCode: string,
  taxCode: string | null,
): Promise<{ categoryCode: string; taxCode: string | null }> {
  return ledger.write(async () => {
    const category = (
      await ledger.rows<{ seq: number; code: string; name: string }>('SELECT seq, code, name FROM categories WHERE org_seq = ? AND code = ?', orgSeq, categoryCode.trim())
    )[0];
    if (!category) throw notFound('category', categoryCode);
    const tax = taxCode ? await requireTaxCode(ledger, orgSeq, taxCode) : null;
    if (tax?.archived_at) throw new LedgerError('conflict', `Tax code ${tax.code} is archived.`, { field: 'taxCode', code: tax.code });
    await ledger.stmt('UPDATE categories SET default_tax_code_seq = ? WHERE seq = ?').run(tax?.seq ?? null, category.seq);
    await appendAudit(ledger, orgSeq, actor, {
      action: 'category.tax_set',
      targetType: 'category',
      targetId: category.code,
      summary: `${category.code} ${category.name}: default tax code ${tax ? tax.code : 'none'}`,
    });
    return { categoryCode: category.code, taxCode: tax?.code ?? null };
  });
}

/** Each category's default tax code, by category code (the categories list's additive field). */
export const categoryTaxCodes = async (ledger: Ledger, orgSeq: number): Promise<Map<string, string>> =>
  new Map(
    (
      await ledger.rows<{ code: string; tax: string }>(
        'SELECT c.code, t.code AS tax FROM categories c JOIN tax_codes t ON t.seq = c.default_tax_code_seq WHERE c.org_seq = ?',
        orgSeq,
      )
    ).map((r) => [r.code, r.tax]),
  );
