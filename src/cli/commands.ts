// Which owner commands exist and where their operations are. The built command
// reads commands.json, which the build writes beside it (scripts/build.mjs):
// a command's name -> the module of its group of desk operations, so `account
// list` loads the accounts group alone, not every operation's zod schemas. The
// sources (and anything the manifest does not name) load every operation, as
// the screens and the server do.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Role } from '../main/desk/roles';
import type { CommandSpec, DeskContext } from '../main/desk/operation';
import type { checkInput, Field } from './flags';
import { schemaFields } from './flags';

export type AnyOperation = {
  roles: readonly Role[];
  input: Parameters<typeof checkInput>[0];
  run(ctx: DeskContext, input: unknown): unknown;
  command?: CommandSpec<unknown>;
};

export interface OwnerCommand {
  /** The desk operation it runs (its name in messages, as the screens' refusals name it). */
  name: string;
  spec: CommandSpec<unknown>;
  operation: AnyOperation;
  /** Its flags, from the input's JSON Schema: worked out for the command that runs only (~1 ms each). */
  readonly fields: Field[];
}

interface Placed {
  /** The group's module, relative to the built command (operations/desk/accounts/accounts.js). */
  module: string;
  /** The export holding the group (accountOperations). */
  group: string;
  operation: string;
}

function ownerCommand(name: string, operation: AnyOperation): OwnerCommand {
  let fields: Field[] | undefined;
  return {
    name,
    spec: operation.command!,
    operation,
    get fields() {
      return (fields ??= schemaFields(operation.input, ['orgId']).map((f) => ({ ...f, flag: operation.command!.flags?.[f.name] ?? f.flag })));
    },
  };
}

let all: OwnerCommand[] | undefined;

/** Every owner command, from every desk operation (help, a group's listing, a name the manifest does not know). */
export async function ownerCommands(): Promise<OwnerCommand[]> {
  // Widened first: comparing each operation's own types with AnyOperation was a costly step of the type check.
  const operations: Record<string, unknown> = (await import('../main/desk/operations')).deskOperations;
  return (all ??= Object.entries(operations as Record<string, AnyOperation>)
    .filter(([, o]) => o.command)
    .map(([name, operation]) => ownerCommand(name, operation)));
}

const here = dirname(fileURLToPath(import.meta.url));

/** The build's manifest, or null when running from the sources. */
function manifest(): Record<string, Placed> | null {
  const file = join(here, 'commands.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, Placed>) : null;
}

/**
 * The command that argv names (the longest name its first words spell) where the build placed it: its group of
 * operations is loaded, and nothing else. Null when it did not (the sources; a group made by a function, as the
 * Approvals group is from every operation's roles; a name that is not an owner command).
 */
export async function placedCommand(argv: string[]): Promise<{ command: OwnerCommand; rest: string[] } | null> {
  const placed = manifest();
  for (const words of [3, 2, 1]) {
    const name = argv.slice(0, words).join(' ');
    const at = placed?.[name];
    if (!at) continue;
    const group = (await import(/* @vite-ignore */ new URL(at.module, import.meta.url).href)) as Record<string, Record<string, AnyOperation>>;
    const operation = group[at.group]?.[at.operation];
    if (operation?.command?.name === name) return { command: ownerCommand(at.operation, operation), rest: argv.slice(words) };
  }
  return null;
}

/** The command that argv names, among every owner command. */
export async function findOwnerCommand(argv: string[]): Promise<{ command: OwnerCommand; rest: string[] } | null> {
  for (const words of [3, 2, 1]) {
    const name = argv.slice(0, words).join(' ');
    const command = (await ownerCommands()).find((c) => c.spec.name === name);
    if (command) return { command, rest: argv.slice(words) };
  }
  return null;
}
