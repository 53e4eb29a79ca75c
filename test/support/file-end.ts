// Closing what a helper opened for a test file (a folder, books, a server, a variable it set), whenever the helper
// was called. Vitest keeps an afterAll only when it is registered while the file is collected: one registered in a
// beforeAll or in a test is dropped without a word, so what helpers opened there outlived their file (a full run
// left some 500 folders in the temp directory, and each worker kept the servers of every file it had run listening).
// `atFileEnd` queues the closing instead; this setup file runs the queue after the file's own afterAll hooks, the
// last opened first. The queue is the process's (globalThis), since a worker runs several files (isolate: false)
// and this file is run again for each.
import { afterAll } from 'vitest';
import { removePrivateTemp } from '../../src/main/desk/private-temp';

const KEY = Symbol.for('ledgerdesk.test.atFileEnd');
const holder = globalThis as { [KEY]?: (() => unknown)[] };
const queue = (holder[KEY] ??= []);

/** Runs `close` when the test file's tests and its own afterAll hooks have run. */
export function atFileEnd(close: () => unknown): void {
  queue.push(close);
}

/** Sets an environment variable until the file ends (undefined: unset), then puts back what it was. */
export function envUntilFileEnd(name: string, value: string | undefined): void {
  const before = process.env[name];
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
  atFileEnd(() => (before === undefined ? delete process.env[name] : (process.env[name] = before)));
}

afterAll(async () => {
  const failed: unknown[] = [];
  for (let close = queue.pop(); close; close = queue.pop())
    await Promise.resolve()
      .then(close)
      .catch((error: unknown) => failed.push(error));
  // The process's own temporary folder (receipts opened, downloads) goes as at a process's exit: a worker runs on,
  // and may be ended without one.
  removePrivateTemp();
  if (failed.length) throw new AggregateError(failed, 'closing what the file opened failed');
});
