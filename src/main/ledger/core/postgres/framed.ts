// One statement framed in its own transaction, in one round trip (issue 51).
// Behind a transaction pooler (PgBouncer) a statement outside a transaction
// may run on any server connection, after any other client's: whatever it
// relies on (the role, the organization, the statement timeout) must be set in
// the same transaction. So a lone statement is sent as BEGIN, the settings
// (transaction-local), the statement and COMMIT, written together in the
// extended protocol with one Sync at the end: the server runs them in order
// and answers once; a failure skips the rest (the caller rolls back).
import pg from './node-postgres';

/** The wire messages node-postgres' Connection writes (what pg.Query itself calls; pg-cursor does the same). */
interface Wire {
  parse(m: { text: string; name?: string; types?: unknown[] }): void;
  bind(m: { values?: unknown[] }): void;
  execute(m: { portal?: string }): void;
  sync(): void;
}

/** pg.Query's protocol methods, which a Submittable query overrides (not in its published types). */
interface QueryProtocol {
  prepare(connection: Wire): void;
  handleDataRow(msg: unknown): void;
  handleCommandComplete(msg: unknown, connection: Wire): void;
}

type Callback = (error: Error | null, result?: pg.QueryResult) => void;

const Base = pg.Query as unknown as new (config: pg.QueryConfig, values: undefined, callback: Callback) => QueryProtocol & pg.Submittable;

/**
 * A query run between `before` (BEGIN, the settings) and `after` (COMMIT) in one pipeline. Only the statement's
 * rows and its command tag reach the caller. A named statement is parsed first, before the others, so that
 * node-postgres records its name at the first ParseComplete (its own) and forgets it if its Parse fails.
 */
export class Framed extends Base {
  #before: string[];
  #after: string[];
  /** Statements completed so far: the framed one is number #before.length. */
  #completed = 0;

  constructor(config: pg.QueryConfig, before: string[], after: string[], callback: Callback) {
    super(config, undefined, callback);
    this.#before = before;
    this.#after = after;
  }

  /** Always the extended protocol: the frame is several statements, written at once. */
  requiresPreparation(): boolean {
    return true;
  }

  override prepare(connection: Wire): void {
    const self = this as unknown as { name?: string; text: string; types?: unknown[]; hasBeenParsed(c: Wire): boolean };
    const named = (connection as unknown as { submittedNamedStatements: Record<string, string> }).submittedNamedStatements;
    if (self.name && !self.hasBeenParsed(connection)) {
      connection.parse({ text: self.text, name: self.name, types: self.types });
      named[self.name] = self.text;
    }
    const step = (text: string) => {
      connection.parse({ text });
      connection.bind({});
      connection.execute({});
    };
    this.#before.forEach(step);
    // pg.Query's own prepare: Parse (unless parsed: named, above), Bind, Describe, Execute, and a Sync held back here.
    super.prepare(Object.create(connection, { sync: { value: () => undefined } }) as Wire);
    this.#after.forEach(step);
    connection.sync();
  }

  override handleDataRow(msg: unknown): void {
    if (this.#completed === this.#before.length) super.handleDataRow(msg);
  }

  override handleCommandComplete(msg: unknown, connection: Wire): void {
    if (this.#completed++ === this.#before.length) super.handleCommandComplete(msg, connection);
  }
}

/** Runs a statement framed by before and after on a client: one round trip. */
export function runFramed(client: pg.PoolClient, config: pg.QueryConfig, before: string[], after: string[]): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => {
    void client.query(new Framed(config, before, after, (error, result) => (error ? reject(error) : resolve(result!))) as unknown as pg.QueryConfig);
  });
}

/** Whether a named statement is prepared on a client's connection (node-postgres records it at its ParseComplete). */
export function parsedOn(client: pg.PoolClient, name: string): boolean {
  return parsedStatements(client)[name] !== undefined;
}

/** node-postgres' record of the statements prepared on a client's connection, by name: their texts. */
export const parsedStatements = (client: pg.PoolClient): Record<string, string> =>
  (client as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements;
