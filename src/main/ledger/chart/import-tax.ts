// A source's tax type ("20% (VAT on Income)") as one of the organization's tax
// codes: the one code in use of that kind and rate. None, or several, leave
// the category's default unset, and the preview says which and why.
import type { SourceTax } from '../../moving/types';
import type { Ledger } from '../core/sqlite/open';
import { listTaxCodes } from '../tax/codes';
import type { TaxKind } from '../../../../db/values';

export interface TaxChoice {
  seq: number;
  code: string;
  kind: TaxKind;
  rate: number;
}

/** The organization's codes in use, with today's rate. */
export async function orgTaxCodes(ledger: Ledger, orgSeq: number): Promise<TaxChoice[]> {
  const seqs = new Map((await ledger.rows<{ seq: number; code: string }>('SELECT seq, code FROM tax_codes WHERE org_seq = ?', orgSeq)).map((r) => [r.code, r.seq]));
  return (await listTaxCodes(ledger, orgSeq)).filter((c) => !c.archived).map((c) => ({ seq: seqs.get(c.code)!, code: c.code, kind: c.kind, rate: c.rate }));
}

/** A rated tax type ("20%") is the standard or reduced code of that rate; the others their kind's one code. */
export function taxCodeFor(codes: TaxChoice[], tax: SourceTax | null): { code: string | null; note: string | null } {
  if (!tax) return { code: null, note: null };
  const unset = (why: string) => ({ code: null, note: `its tax type "${tax.text}" ${why}: its default tax code is left unset` });
  if (!tax.kind) return unset('has no counterpart here');
  const rated = tax.kind === 'standard' || tax.kind === 'reduced';
  const fits = codes.filter((c) => (rated ? c.kind === 'standard' || c.kind === 'reduced' : c.kind === tax.kind) && (tax.rate === null || c.rate === tax.rate));
  if (fits.length === 1) return { code: fits[0].code, note: null };
  // No codes at all is said once for the whole file (chart/import.ts), not on every row.
  if (!codes.length) return { code: null, note: null };
  if (!fits.length) return unset('is no tax code of this organization');
  return unset(`could be ${fits.map((c) => c.code).join(' or ')}`);
}
