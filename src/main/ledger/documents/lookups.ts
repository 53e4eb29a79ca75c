// What writing documents looks up (the organization, categories by code, tax
// codes, their rates by date, contacts), each read once per Lookups: a file
// of 100,000 invoices names the same few hundred things over and over
// (many.ts). One Lookups serves one write in which nothing it read changes.
import { organizationBySeq, type Organization } from '../access/organizations';
import { chartRowByCode, type ChartRow } from '../chart/categories';
import type { Ledger } from '../core/db';
import { requireContactRow, type ContactRow } from '../contacts/contacts';
import { rateOn, usableTaxCodeRow } from '../tax/codes';
import { defaultTaxOf } from '../tax/lines';
import { Valuer } from '../rates/valuer';

export interface TaxFacts {
  kind: string;
  recoverable_percent: number;
}

export interface Lookups {
  ledger: Ledger;
  orgSeq: number;
  org: Organization;
  category(code: string): ChartRow | undefined;
  /** A usable tax code's seq (throws, naming `field`, for an unknown or archived one). */
  taxCode(code: string, field: string): number;
  taxFacts(seq: number): TaxFacts;
  rate(seq: number, date: string): number;
  defaultTax(categorySeq: number): number | null;
  contact(ref: string): ContactRow;
  /** Amounts in the base currency, each rate read once. */
  valuer: Valuer;
}

/** A function remembering its answers (a throw is not remembered). */
function remembered<K, V>(fn: (key: K) => V): (key: K) => V {
  const known = new Map<K, V>();
  return (key) => {
    if (known.has(key)) return known.get(key)!;
    const value = fn(key);
    known.set(key, value);
    return value;
  };
}

export function lookups(ledger: Ledger, orgSeq: number): Lookups {
  const taxCode = remembered((code: string) => usableTaxCodeRow(ledger, orgSeq, code).seq);
  const rate = remembered((key: string) => rateOn(ledger, Number(key.slice(11)), key.slice(0, 10)));
  return {
    ledger,
    orgSeq,
    org: organizationBySeq(ledger, orgSeq),
    category: remembered((code: string) => chartRowByCode(ledger, orgSeq, code)),
    taxCode: (code, field) => {
      try {
        return taxCode(code);
      } catch {
        return usableTaxCodeRow(ledger, orgSeq, code, field).seq;
      }
    },
    taxFacts: remembered((seq: number) => ledger.stmt('SELECT kind, recoverable_percent FROM tax_codes WHERE seq = ?').get(seq) as TaxFacts),
    rate: (seq, date) => rate(`${date} ${seq}`),
    defaultTax: remembered((categorySeq: number) => defaultTaxOf(ledger, categorySeq)),
    contact: remembered((ref: string) => requireContactRow(ledger, orgSeq, ref)),
    valuer: new Valuer(ledger, orgSeq),
  };
}
