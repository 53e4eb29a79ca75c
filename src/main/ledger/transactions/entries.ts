// Many new entries at once, each engine its own way: SQLite's EntryWriter (rows
// with their seqs given, lines set-wise) or PostgreSQL's (batches over unnest,
// seqs from the sequence).
import type { Ledger } from '../core/sqlite/open';
import type { Track } from '../totals/declared';
import { EntryWriter, type EntryWriting } from './insert';
import { PostgresEntryWriter } from './insert-postgres';

export type { EntryWriting };

/** A writer of many entries in the caller's write transaction (track: SQLite's bulk totals; PostgreSQL's triggers need none). */
export async function openEntryWriter(ledger: Ledger, orgSeq: number, track?: Track): Promise<EntryWriting> {
  return ledger.engine === 'postgres' ? new PostgresEntryWriter(ledger, orgSeq) : EntryWriter.open(ledger, orgSeq, track);
}
