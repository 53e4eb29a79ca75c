// Owner commands derived from the desk operations that declare one
// (`ledgerdesk account create`, `import`, `import undo`...): the same zod
// input, the same function, the same checks as the screens. Positional
// arguments and flags become the operation's input; --org picks the
// organization (needed when there are several; a command that wrote names it
// on stderr), --data the folder; --json prints the result as it is.
// Exit codes: 0 done, 1 refused or failed (a LedgerError, bad rows), 2 misuse.
import { objectShape } from '../main/api/operation';
import { asPerson, forOrgOf } from '../main/desk/scope';
import type { DeskContext } from '../main/desk/operation';
import { LedgerError } from '../main/ledger/core/errors';
import { deskActor } from '../main/ledger/access/organizations';
import { dueRepeats } from '../main/ledger/journals/repeat-row';
import { today } from '../main/ledger/core/clock';
import { serverSetting } from '../main/ledger/access/server-settings';
import { DEFAULT_PORT, defaultDataDir } from '../main/paths';
import { running } from '../main/running';
import { ownerCommands, type OwnerCommand } from './commands';
import { commandPerson, lastAuditSeq, peopleSignIn, orgLabel, pickOrganization, withLedger } from './data';
import { checkInput, convert, flagHelp, parseFlags, type Field } from './flags';
import { render } from './render';
import { UsageError } from './usage';

export { findOwnerCommand, ownerCommands } from './commands';

type Out = (line: string) => void;

/** An organization id that checks as one, for checking a command's input before the organization is picked. */
const STAND_IN = '00000000-0000-4000-8000-000000000000';

const COMMON = {
  data: { type: 'string' },
  database: { type: 'string' },
  org: { type: 'string' },
  as: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

/**
 * The owner commands the leading words of argv start ("tx": tx add, tx edit...; "tax return": tax return file,
 * tax return payments...), as usage lines, with those words: the longest run of them that starts some command.
 */
export async function commandGroup(argv: string[]): Promise<{ words: string; lines: string[] }> {
  const all = await ownerCommands();
  for (let n = Math.min(argv.length, 3); n > 0; n--) {
    const words = argv.slice(0, n);
    if (words.some((w) => w.startsWith('-'))) continue;
    const group = all.filter((c) => c.spec.name.split(' ').slice(0, n).join(' ') === words.join(' '));
    if (group.length === 0) continue;
    const usage = group.map((c) => `${c.spec.name}${(c.spec.args ?? []).map((a) => ` <${a}>`).join('')}`);
    const width = Math.max(40, ...usage.map((u) => u.length + 2));
    return { words: words.join(' '), lines: group.map((c, i) => `  ledgerdesk ${usage[i].padEnd(width)}${c.spec.summary}`) };
  }
  return { words: '', lines: [] };
}

const argName = (arg: string) => arg.replace(/\.\.\.$/, '');

export function ownerUsage(c: OwnerCommand): string {
  const args = (c.spec.args ?? []).map((a) => ` <${a}>`).join('');
  const flags = c.fields.filter((f) => !(c.spec.args ?? []).map(argName).includes(f.name));
  return [
    `Usage: ledgerdesk ${c.spec.name}${args} [flags]`,
    '',
    `${c.spec.summary[0].toUpperCase()}${c.spec.summary.slice(1)}.`,
    ...(flags.length ? ['', 'Flags:', ...flags.map((f) => flagHelp(f))] : []),
    '',
    `Common flags: --org <slug>, --data <dir> (default ${defaultDataDir()}), --database <postgres://...> (a firm's server; or LEDGERDESK_DATABASE_URL), --as <email> (the person running it, with their role; or LEDGERDESK_AS), --json (print the result as JSON)${c.spec.csv ? ', --csv (as CSV)' : ''}, --help.`,
  ].join('\n');
}

/** A command's positional arguments and flags as its operation's input. */
function commandInput(c: OwnerCommand, positionals: string[], given: (f: Field) => (string | boolean)[], usage: string): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const rest = [...positionals];
  for (const arg of c.spec.args ?? []) {
    const field = c.fields.find((f) => f.name === argName(arg))!;
    if (arg.endsWith('...')) input[field.name] = rest.splice(0);
    else if (rest.length) input[field.name] = convert(field, [rest.shift()!], usage);
  }
  if (rest.length) throw new UsageError(`Unexpected argument "${rest[0]}".`, usage);
  for (const f of c.fields) {
    const raw = given(f);
    if (raw.length) input[f.name] = convert(f, raw, usage, c.spec.repeated?.includes(f.name));
  }
  return input;
}

export async function runOwnerCommand(c: OwnerCommand, args: string[], out: Out, note: Out = (line) => process.stderr.write(`${line}\n`)): Promise<number> {
  const usage = ownerUsage(c);
  const { values, positionals, given } = parseFlags(args, c.fields, c.spec.csv ? { ...COMMON, csv: { type: 'boolean' } } : COMMON, usage);
  if (values.help) {
    out(usage);
    return 0;
  }
  const input = commandInput(c, positionals, given, usage);
  const json = values.json === true;
  return withLedger({ data: values.data as string | undefined, database: values.database as string | undefined }, async (ledger) => {
    const dataDir = (values.data as string | undefined) ?? defaultDataDir();
    const ctx: DeskContext = {
      ledger,
      dataDir,
      agentUrl: '',
      // Links handed to people (invitations) point at the server they use: its public address (this shell's, else the
      // one `serve --public-url` kept in the books' database), else the one running here.
      publicUrl:
        process.env.LEDGERDESK_PUBLIC_URL ||
        (await serverSetting(ledger, 'public_url')) ||
        running(dataDir)?.url ||
        `http://127.0.0.1:${process.env.LEDGERDESK_PORT || DEFAULT_PORT}`,
      mode: 'command',
      reviewer: deskActor(),
      stdout: process.stdout,
    };
    try {
      // Only commands about one organization's books pick one (org commands name theirs), once the
      // input is checked with a stand-in id: misuse is said first (exit 2), whichever the organization.
      const shape = objectShape(c.operation.input);
      const scoped = 'orgId' in shape;
      // An operation naming its organization itself (user remove, org rename) takes --org for it too.
      if (!scoped && 'organization' in shape && values.org !== undefined && input.organization === undefined) input.organization = values.org;
      const checked = checkInput(c.operation.input, { ...input, ...(scoped ? { orgId: STAND_IN } : {}) }, usage);
      const org = scoped ? await pickOrganization(ledger, values.org as string | undefined) : null;
      const as = (values.as as string | undefined) ?? (process.env.LEDGERDESK_AS || undefined);
      ctx.person = await commandPerson(ledger, as);
      const run = async () => {
        // The repeating journals' occurrences due by today are in the books before any command reads them (issue 43).
        // The journal writer (and the tax and totals code under it) is loaded only when one is due.
        if (org && (await dueRepeats(ledger, org.seq, today())).length)
          await (await import('../main/ledger/journals/repeats')).catchUpRepeats(ledger, ctx.reviewer, today(), org.seq);
        const parsed = org ? { ...(checked as object), orgId: org.id } : checked;
        const before = org && (await lastAuditSeq(ledger, org));
        // A person named runs it with their role there, and what it writes names them (as the screens do).
        const permitted = ctx.person ? await asPerson(ctx, c.name, c.operation.roles, org) : ctx;
        const result = await c.operation.run(permitted, parsed);
        if (json) out(JSON.stringify(result, null, 2));
        else if (values.csv && c.spec.csv) process.stdout.write(c.spec.csv(result));
        else (c.spec.print?.(result) ?? render({ data: result })).forEach((line) => out(line));
        // Which books changed, on stderr: stdout stays the command's answer for whoever reads it.
        if (org && (await lastAuditSeq(ledger, org)) !== before) {
          note(`In the books of ${orgLabel(org)}.`);
          if (!ctx.person && (await peopleSignIn(ledger)))
            note(`Recorded as the machine's owner (${ctx.reviewer.name}): name the person running it with --as <email> (or LEDGERDESK_AS).`);
        }
        return c.spec.failed?.(result) ? 1 : 0;
      };
      // An organization command (org edit <slug>) runs for the organization it names.
      return org ? await ledger.forOrg(org.seq, run) : await forOrgOf(ledger, checked, run);
    } catch (error) {
      if (json && error instanceof LedgerError) {
        out(JSON.stringify(error.toBody(), null, 2));
        return 1;
      }
      throw error;
    }
  });
}
