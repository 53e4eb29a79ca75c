// A statement's rows, column by column: a million rows as a million objects
// weigh ~300 MB of heap and keep the garbage collector busy; as columns (a
// few typed arrays, equal dates and amounts sharing one string, the
// descriptions packed as UTF-8: text-column.ts) they weigh about the text
// they hold.
import { TextColumn } from './text-column';

/** One row of a statement, in the file's terms. */
export interface StatementRow {
  section: number;
  /** Where the row is in the file: the line (CSV, QIF, MT940) or the entry's line (OFX, CAMT). */
  line: number;
  date: string; // YYYY-MM-DD, already checked to be a calendar date
  amount: string; // signed decimal text
  description: string;
  /** The bank's own id of the row (FITID, AcctSvcrRef, bank reference), when the file has one. */
  externalId: string | null;
}

export class StatementRows implements Iterable<StatementRow> {
  length = 0;
  section = new Uint16Array(1024);
  line = new Int32Array(1024);
  readonly date: string[] = [];
  readonly amount: string[] = [];
  readonly description = new TextColumn();
  /** The bank ids, by row; empty (not a million nulls) until a row has one: read with idAt. */
  readonly externalId: (string | null)[] = [];

  static from(rows: Iterable<StatementRow>): StatementRows {
    const out = new StatementRows();
    for (const r of rows) out.push(r);
    return out;
  }

  add(section: number, line: number, date: string, amount: string, description: string, externalId: string | null): void {
    const i = this.length++;
    if (i === this.line.length) {
      const section = new Uint16Array(i * 2);
      section.set(this.section);
      this.section = section;
      const lines = new Int32Array(i * 2);
      lines.set(this.line);
      this.line = lines;
    }
    this.section[i] = section;
    this.line[i] = line;
    this.date.push(date);
    this.amount.push(amount);
    this.description.push(description);
    if (externalId !== null || this.externalId.length > 0) {
      while (this.externalId.length < i) this.externalId.push(null);
      this.externalId.push(externalId);
    }
  }

  push(r: StatementRow): void {
    this.add(r.section, r.line, r.date, r.amount, r.description, r.externalId);
  }

  /** Row i's bank id, or null. */
  idAt(i: number): string | null {
    return this.externalId[i] ?? null;
  }

  /** Keeps only the rows `kept` marks, in order, every column moved down in place. */
  keep(kept: Uint8Array): void {
    if (this.amountsDropped) throw new Error('The rows\u2019 amounts were let go after the import counted them.');
    const ids = this.externalId;
    const withIds = ids.length; // the rows after these have none
    let n = 0;
    for (let i = 0; i < this.length; i++) {
      if (!kept[i]) continue;
      this.section[n] = this.section[i];
      this.line[n] = this.line[i];
      this.date[n] = this.date[i];
      this.amount[n] = this.amount[i];
      if (n < withIds) ids[n] = i < withIds ? ids[i] : null;
      n++;
    }
    this.description.keep(kept);
    this.length = n;
    this.date.length = n;
    this.amount.length = n;
    ids.length = Math.min(withIds, n);
  }

  /**
   * Lets go of the amounts' text once an import holds them in minor units (a
   * million strings, ~40 MB it would keep until its commit); the rows can no
   * longer be read whole after.
   */
  dropAmountText(): void {
    this.amount.length = 0;
    this.amountsDropped = true;
  }

  private amountsDropped = false;

  at(i: number): StatementRow {
    if (this.amountsDropped) throw new Error('The rows\u2019 amounts were let go after the import counted them.');
    return { section: this.section[i], line: this.line[i], date: this.date[i], amount: this.amount[i], description: this.description.at(i), externalId: this.idAt(i) };
  }

  /** Rows of one section. */
  count(section: number): number {
    let n = 0;
    for (let i = 0; i < this.length; i++) if (this.section[i] === section) n++;
    return n;
  }

  *[Symbol.iterator](): Iterator<StatementRow> {
    for (let i = 0; i < this.length; i++) yield this.at(i);
  }

  toArray(): StatementRow[] {
    return [...this];
  }
}
