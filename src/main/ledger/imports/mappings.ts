// Saved CSV mappings (hledger's idea: the mapping is data, not code). Each
// CSV import saves how its file was read as the account's preset, named
// "<account> CSV"; the account's next file is read the same way, and a file
// whose header matches a preset is recognised as that account's.
import { dateOrderOf, type DateOrder } from '../../statements/dates';
import type { CsvMapping, CsvReport } from '../../statements/types';
import type { AccountRow } from '../accounts/accounts';
import { newId, nowIso } from '../core/clock';
import type { Ledger } from '../core/sqlite/open';
import { LedgerError } from '../core/errors';
import { freeNameAsync } from '../core/text';

export interface MappingPreset {
  id: string;
  name: string;
  accountId: string | null;
  accountName: string | null;
  mapping: SavedMapping;
  updatedAt: string;
}

/** A CSV mapping plus the header it was made for. */
export interface SavedMapping extends CsvMapping {
  headers: string[];
}

interface PresetRow {
  id: string;
  name: string;
  account_id: string | null;
  account_name: string | null;
  mapping: string;
  updated_at: string;
}

const SELECT = `SELECT m.id, m.name, a.id AS account_id, a.name AS account_name, m.mapping, m.updated_at
  FROM import_mappings m LEFT JOIN accounts a ON a.seq = m.account_seq`;

const toPreset = (r: PresetRow): MappingPreset => ({
  id: r.id,
  name: r.name,
  accountId: r.account_id,
  accountName: r.account_name,
  mapping: JSON.parse(r.mapping) as SavedMapping,
  updatedAt: r.updated_at,
});

export const listMappings = async (ledger: Ledger, orgSeq: number): Promise<MappingPreset[]> =>
  (await ledger.rows<PresetRow>(`${SELECT} WHERE m.org_seq = ? ORDER BY lower(m.name)`, orgSeq)).map(toPreset);

export async function requireMapping(ledger: Ledger, orgSeq: number, name: string): Promise<MappingPreset> {
  const row = (await ledger.rows<PresetRow>(`${SELECT} WHERE m.org_seq = ? AND (lower(m.name) = lower(?) OR m.id = ?)`, orgSeq, name.trim(), name.trim()))[0];
  if (!row) {
    const known = (await listMappings(ledger, orgSeq)).map((m) => `"${m.name}"`).join(', ') || 'none yet';
    throw new LedgerError('not_found', `No saved mapping "${name}" (saved: ${known}).`, { resource: 'mapping', id: name });
  }
  return toPreset(row);
}

const signature = (headers: string[]): string => JSON.stringify(headers.map((h) => h.trim().toLowerCase()));

/** The preset of an account, if its CSV was imported before and the preset was made for this header. */
export async function mappingOfAccount(ledger: Ledger, accountSeq: number, headers: string[]): Promise<SavedMapping | null> {
  const row = (await ledger.stmt('SELECT mapping FROM import_mappings WHERE account_seq = ? ORDER BY updated_at DESC LIMIT 1').get(accountSeq)) as { mapping: string } | undefined;
  const saved = row ? (JSON.parse(row.mapping) as SavedMapping) : null;
  return saved && signature(saved.headers ?? []) === signature(headers) ? saved : null;
}

/** The one open account whose preset was made for exactly this header, if there is one. */
export async function accountForHeaders(ledger: Ledger, orgSeq: number, headers: string[]): Promise<AccountRow | null> {
  const wanted = signature(headers);
  const rows = await ledger.rows<AccountRow & { mapping: string }>(
    'SELECT a.*, m.mapping FROM import_mappings m JOIN accounts a ON a.seq = m.account_seq WHERE m.org_seq = ? AND a.closed_at IS NULL',
    orgSeq,
  );
  const fits = rows.filter((r) => signature((JSON.parse(r.mapping) as SavedMapping).headers ?? []) === wanted);
  return fits.length === 1 ? fits[0] : null;
}

/**
 * An account's date order (day or month first): how its last statement that
 * said was read (the format given, or the one its dates settled), undone
 * imports left out, else its saved CSV mapping's. It settles a QIF whose every
 * date reads both ways (early-month days), never overrides one that decides
 * for itself.
 */
export async function accountDateOrder(ledger: Ledger, accountSeq: number): Promise<DateOrder | null> {
  const batches = await ledger.rows<{ options: string }>(
    'SELECT b.options FROM statements s JOIN import_batches b ON b.seq = s.batch_seq WHERE s.account_seq = ? AND b.undone_at IS NULL ORDER BY b.seq DESC LIMIT 20',
    accountSeq,
  );
  for (const b of batches) {
    const o = JSON.parse(b.options) as { datesAs?: string; dateFormat?: string; mapping?: CsvMapping };
    const order = dateOrderOf(o.datesAs ?? o.dateFormat ?? o.mapping?.dateFormat);
    if (order) return order;
  }
  const row = (await ledger.stmt('SELECT mapping FROM import_mappings WHERE account_seq = ? ORDER BY updated_at DESC LIMIT 1').get(accountSeq)) as { mapping: string } | undefined;
  return row ? dateOrderOf((JSON.parse(row.mapping) as SavedMapping).dateFormat) : null;
}

/** Saves (or replaces) an account's preset from the mapping a CSV import used. */
export async function saveMappingFor(ledger: Ledger, orgSeq: number, account: AccountRow, report: CsvReport, negate: boolean): Promise<void> {
  if (!report.columns) return;
  const mapping: SavedMapping = {
    columns: report.columns,
    dateFormat: report.dateFormat ?? undefined,
    decimal: report.decimal,
    negate: negate || undefined,
    headers: report.headers,
  };
  const now = nowIso();
  const existing = (await ledger.stmt('SELECT seq FROM import_mappings WHERE account_seq = ?').get(account.seq)) as { seq: number } | undefined;
  if (existing) {
    await ledger.stmt('UPDATE import_mappings SET mapping = ?, updated_at = ? WHERE seq = ?').run(JSON.stringify(mapping), now, existing.seq);
    return;
  }
  const name = await freeNameAsync(`${account.name} CSV`, async (n) =>
    Boolean(await ledger.stmt('SELECT 1 FROM import_mappings WHERE org_seq = ? AND lower(name) = lower(?)').get(orgSeq, n)),
  );
  await ledger
    .stmt('INSERT INTO import_mappings (id, org_seq, account_seq, name, mapping, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .run(newId(), orgSeq, account.seq, name, JSON.stringify(mapping), now, now);
}
