// A column of text (a statement's descriptions) packed as UTF-8 in one buffer
// that grows as rows come in. A million short strings weigh ~56 bytes each in
// V8's heap and are a million objects for its collector to mark; here they
// weigh their bytes and 4 more, outside the heap, and each is a string again
// only while it is read.

const FIRST_BYTES = 64 * 1024;
const FIRST_ROWS = 1024;

export class TextColumn {
  length = 0;
  #bytes = Buffer.allocUnsafe(FIRST_BYTES);
  #used = 0;
  /** Where each text ends in #bytes (it starts where the one before ends). */
  #ends = new Uint32Array(FIRST_ROWS);

  push(text: string): void {
    // A UTF-16 code unit is at most 3 bytes of UTF-8 (a surrogate pair, 2 units, is 4).
    this.#room(text.length * 3);
    this.#used += this.#bytes.write(text, this.#used, 'utf8');
    if (this.length === this.#ends.length) {
      const ends = new Uint32Array(this.length * 2);
      ends.set(this.#ends);
      this.#ends = ends;
    }
    this.#ends[this.length++] = this.#used;
  }

  /** The text of row i (0 <= i < length). */
  at(i: number): string {
    return this.#bytes.toString('utf8', this.#start(i), this.#ends[i]);
  }

  /** Replaces the last text (an MT940 line's :86: information, read after its :61: line). */
  replaceLast(text: string): void {
    this.length--;
    this.#used = this.#start(this.length);
    this.push(text);
  }

  /** Keeps only the texts `kept` marks, in order, moved down in place (no second copy of the column). */
  keep(kept: Uint8Array): void {
    let n = 0;
    let used = 0;
    for (let i = 0; i < this.length; i++) {
      if (!kept[i]) continue;
      const start = this.#start(i);
      const end = this.#ends[i];
      if (start !== used) this.#bytes.copyWithin(used, start, end);
      used += end - start;
      this.#ends[n++] = used;
    }
    this.length = n;
    this.#used = used;
  }

  #start(i: number): number {
    return i === 0 ? 0 : this.#ends[i - 1];
  }

  #room(bytes: number): void {
    const needed = this.#used + bytes;
    if (needed <= this.#bytes.length) return;
    // Offsets are 32-bit: 4 GB of descriptions is some 50 million rows, far beyond any statement (the CSV
    // reader, the only one that reads a file of that size, names this as the reason it cannot read it).
    if (needed > 0xffff_ffff) throw new RangeError('its descriptions are over 4 GB; split it into several files');
    const bytesNow = Buffer.allocUnsafe(Math.min(0xffff_ffff, Math.max(needed, this.#bytes.length * 2)));
    this.#bytes.copy(bytesNow, 0, 0, this.#used);
    this.#bytes = bytesNow;
  }
}
