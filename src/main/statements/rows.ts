// A statement's rows, column by column: a million rows as a million objects
// weigh ~300 MB of heap and keep the garbage collector busy; as columns (a
// few typed arrays, the text in plain arrays, equal dates sharing one string)
// they weigh about the text they hold.

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
  readonly description: string[] = [];
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
    this.externalId.push(externalId);
  }

  push(r: StatementRow): void {
    this.add(r.section, r.line, r.date, r.amount, r.description, r.externalId);
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
    return { section: this.section[i], line: this.line[i], date: this.date[i], amount: this.amount[i], description: this.description[i], externalId: this.externalId[i] };
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
