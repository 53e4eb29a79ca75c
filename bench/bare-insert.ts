// The import benchmark's baseline: the merged CSV's rows read with a plain
// split and inserted into a bare table (an id, the account, date, amount,
// description; the two indexes any ledger needs) in one transaction, with
// better-sqlite3 and nothing else.
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';

const [csv, file] = process.argv.slice(2);
rmSync(file, { force: true });
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.exec(`CREATE TABLE rows (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, account INTEGER NOT NULL, date TEXT NOT NULL, amount_minor INTEGER NOT NULL, description TEXT NOT NULL);
  CREATE INDEX rows_account_date ON rows (account, date, amount_minor);`);
const insert = db.prepare('INSERT INTO rows (id, account, date, amount_minor, description) VALUES (?, 1, ?, ?, ?)');
const lines = readFileSync(csv, 'utf8').split('\n');
db.transaction(() => {
  for (let i = 1; i < lines.length; i++) {
    if (!lines[i]) continue;
    const [date, description, amount] = lines[i].split(',');
    insert.run(randomUUID(), date, Math.round(Number(amount) * 100), description);
  }
})();
db.close();
