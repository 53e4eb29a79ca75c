// `node --import ./test/support/loads.mjs ...`: prints on stderr each ES module the process loads
// ("loads <url>"), so a test can say what a command loaded (test/built.test.ts). The hooks run on a thread of
// their own, which loads this file again: only the main thread registers them.
import { register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

if (isMainThread) register(import.meta.url);

export async function load(url, context, next) {
  process.stderr.write(`loads ${url}\n`);
  return next(url, context);
}
