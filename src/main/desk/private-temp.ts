// This process's own temporary folder (issue 51): made with mkdtemp (a new,
// unguessable name, mode 0700), so that no other local user can make it first,
// read what goes in it or plant a file there, and removed when the process
// exits. Downloads copied out of a server's database, exports on their way to
// standard output and receipts opened in the computer's viewer wait here.
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let folder: string | undefined;

/** The folder, made on first use (again if something removed it). */
export function privateTemp(): string {
  if (folder && existsSync(folder)) return folder;
  const first = folder === undefined;
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-'));
  chmodSync(folder, 0o700);
  if (first) process.once('exit', removePrivateTemp);
  return folder;
}

/** Removes the folder and all in it (at exit; a test's own end). */
export function removePrivateTemp(): void {
  try {
    if (folder) rmSync(folder, { recursive: true, force: true });
  } catch {
    // A file still open in a viewer (Windows): the system's temp cleaning takes it.
  }
}

/** A path in the folder for one file, by a name this process chose (an id, never a person's file name). */
export const privatePath = (name: string): string => {
  if (!/^[A-Za-z0-9._-]+$/.test(name) || name.startsWith('.')) throw new RangeError(`not a private file name: ${name}`);
  return join(privateTemp(), name);
};
