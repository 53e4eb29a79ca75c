// What writing documents looks up (the organization, categories by code, tax
// codes, their rates by date, contacts), each read once per Lookups: a file
// of 100,000 invoices names the same few hundred things over and over
// (many.ts). One Lookups serves one write in which nothing it read changes.
import { organizationBySeq, type Organization } from '../access/organizations';
import { chartRowByCode, type ChartRow } from '../chart/categories';
import type { Ledger } from '../core/sqlite/open';
import { requireContactRow, type ContactRow } from '../contacts/contacts';
import { rateOn, usableTaxCodeRow } from '../tax/codes';
import { defaultTaxOf } from '../tax/lines';
import { Valuer } from '../rates/valuer';

export interface TaxFacts {
  code: string;
  kind: string;
  /** sales, purchases or both. */
  applies: string;
  recoverable_percent: number;
}

export interface Lookups {
  ledger: Ledger;
  orgSeq: number;
  org: Organization;
  category(code: string): Promise<ChartRow | undefined>;
  /** A usable tax code's seq (throws, naming `field`, for an unknown or archived one). */
  taxCode(code: string, field: string): Promise<number>;
  taxFacts(seq: number): Promise<TaxFacts>;
  rate(seq: number, date: string): Promise<number>;
  defaultTax(categorySeq: number): Promise<number | null>;
  contact(ref: string): Promise<ContactRow>;
  /** Amounts in the base currency, each rate read once. */
  valuer: Valuer;
}

/** A function remembering its answers (a refusal is not remembered). */
function remembered<K, V>(fn: (key: K) => Promise<V>): (key: K) => Promise<V> {
  const known = new Map<K, V>();
  return async (key) => {
    if (known.has(key)) return known.get(key)!;
    const value = await fn(key);
    known.set(key, value);
    return value;
  };
}

export async function lookups(ledger: Ledger, orgSeq: number): Promise<Lookups> {
  const taxCode = remembered(async (code: string) => (await usableTaxCodeRow(ledger, orgSeq, code)).seq);
  const rate = remembered((key: string) => rateOn(ledger, Number(key.slice(11)), key.slice(0, 10)));
  return {
    ledger,
    orgSeq,
    org: await organizationBySeq(ledger, orgSeq),
    category: remembered((code: string) => chartRowByCode(ledger, orgSeq, code)),
    taxCode: async (code, field) => {
      try {
        return await taxCode(code);
      } catch {
        return (await usableTaxCodeRow(ledger, orgSeq, code, field)).seq;
      }
    },
    taxFacts: remembered(async (seq: number) => (await ledger.stmt('SELECT code, kind, applies, recoverable_percent FROM tax_codes WHERE seq = ?').get(seq)) as TaxFacts),
    rate: (seq, date) => rate(`${date} ${seq}`),
    defaultTax: remembered((categorySeq: number) => defaultTaxOf(ledger, categorySeq)),
    contact: remembered((ref: string) => requireContactRow(ledger, orgSeq, ref)),
    valuer: new Valuer(ledger, orgSeq),
  };
}
