import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Files shipped beside the code (migrations) are found by walking up from this
// module, so the same lookup works from src/ (tsx, tests) and out/ (electron-vite).
export function findShipped(relative: string, from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, relative);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error(`Ledgerdesk is missing its ${relative} folder (looked upwards from ${from}).`);
  }
}
