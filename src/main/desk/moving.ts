// Moving from another program at the desk: a chart or contacts export named
// (a path from an owner command, a staged upload's id from the screens, as
// statements are), read (src/main/moving/), previewed with dryRun, then
// applied. The chart's operation is in accounts/chart-import.ts, the
// contacts' in documents/contact-import.ts; what both share is here.
import * as z from 'zod';
import * as L from '../ledger';
import { MovingFileError, MOVING_FROM, type SourceFile } from '../moving';
import { bytesOf, fileDone, openFile } from './files';
import { Org, orgSeq, type DeskContext } from './operation';

export const MovingInput = z.strictObject({
  ...Org,
  file: z.string().min(1).max(4096).describe("The export (CSV): a path (owner command) or an uploaded file's id (app)"),
  from: z.enum(MOVING_FROM).default('auto').describe("The program it comes from: xero, quickbooks, or auto (told from the file's header)"),
  dryRun: z.boolean().default(false).describe('Preview: say what would be added, updated, left and skipped, and write nothing'),
});
export type MovingInputOf = z.output<typeof MovingInput>;

/** Reads the named file with a source reader, a file that is not the export asked for refused on `file`/`from`. */
export async function readMoving<T>(
  ctx: DeskContext,
  input: MovingInputOf,
  read: (bytes: Uint8Array, from: MovingInputOf['from'], name: string) => SourceFile<T>,
): Promise<{ seq: number; file: SourceFile<T>; name: string; done: () => Promise<void> }> {
  const seq = await orgSeq(ctx, input.orgId);
  const source = await openFile(ctx, seq, input.file);
  // An upload that served (an import, not its preview) is not kept staged (issue 51).
  const done = () => (input.dryRun ? Promise.resolve() : fileDone(ctx, seq, input.file));
  try {
    return { seq, file: read(await bytesOf(source), input.from, source.name), name: source.name, done };
  } catch (error) {
    if (error instanceof MovingFileError) throw L.invalid([{ field: input.from === 'auto' ? 'file' : 'from', message: error.message }], error.message);
    throw error;
  }
}

/** An import's lines for the command: the counts, then each row with what happens to it and why. */
export function printMoving(
  r: { fileName: string; described: string; dryRun: boolean; unread: { line: number; reason: string }[]; warnings?: string[] },
  counts: string,
  items: { line: number; action: string; label: string; notes: string[] }[],
): string[] {
  const head = `${r.dryRun ? 'Preview of' : 'Imported'} ${r.fileName} (${r.described}): ${counts}.`;
  const rows = items.map((i) => `  line ${String(i.line).padEnd(4)} ${i.action.padEnd(8)} ${i.label}${i.notes.length ? `: ${i.notes.join('; ')}` : ''}`);
  const unread = r.unread.map((u) => `  line ${String(u.line).padEnd(4)} not read: ${u.reason}`);
  return [
    head,
    ...(r.warnings ?? []).map((w) => `Note: ${w}`),
    ...rows,
    ...unread,
    ...(r.dryRun ? ['Nothing written (--dry-run). Run it again without --dry-run to import.'] : []),
  ];
}
