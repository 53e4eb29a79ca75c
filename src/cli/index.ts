#!/usr/bin/env node
// `ledgerdesk`: the agent client (agent.ts, REST with a token), the owner's
// commands derived from the desk operations (owner.ts) and serve/token/demo/
// org/restore/sign-in (local.ts). Each part is loaded only when its command
// runs: help and agent commands never load the database driver or the servers.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { LedgerError } from '../main/ledger/core/errors';
import { findShipped } from '../main/ledger/core/paths';
import { defaultDataDir } from '../main/paths';
import { UsageError } from './usage';

// A command is short-lived and may hold a large statement: let the heap grow by a
// fifth of what is live, not several times it (a 1,000,000-row import peaks at
// ~400 MB instead of ~650 MB, no slower).
setFlagsFromString('--heap-growing-percent=20');

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

const LOCAL = ['serve', 'token', 'demo', 'restore', 'sign-in'];
/** Stands for the data folder in the help text the build writes (help.txt): the folder is the user's, not the builder's. */
export const DATA_MARK = '@@LEDGERDESK_DATA@@';

async function computedUsage(): Promise<string> {
  const [{ operations }, { kebab }, ownerCommands, { LOCAL_USAGE }] = await Promise.all([
    import('../main/api/registry'),
    import('./flags'),
    import('./commands').then((c) => c.ownerCommands()),
    import('./local'),
  ]);
  const agent = operations.map((op) => `  ${op.operationId.padEnd(24)} ${op.title}`).join('\n');
  const owner = ownerCommands.map((c) => `  ${`${c.spec.name}${(c.spec.args ?? []).map((a) => ` <${a}>`).join('')}`.padEnd(34)}${c.spec.summary}`).join('\n');
  return `Usage: ledgerdesk <command> [flags]

Agent commands (REST API with a token; names also work with dashes, e.g. ${kebab('list_transactions')}):
${agent}
  Each takes --json, --token, --url and --help. Writes are proposals a human reviews in Approvals.

  login [--url <u>] [--token <t>]   check a token and save it with the URL (0600)
  logout                            forget the saved token

${LOCAL_USAGE}
${owner}
  Each takes --org, --data, --json and --help; exit 0 done, 1 refused, 2 misuse.
  --org <slug> is needed when the folder keeps several organizations; a command that writes names the one it wrote to (stderr).

  help                              this text
  --version                         the version`;
}

/** The built command reads the help the build wrote beside it; the sources compute it. */
async function fullUsage(): Promise<string> {
  const file = process.env.LEDGERDESK_HELP_FILE ?? join(dirname(fileURLToPath(import.meta.url)), 'help.txt');
  if (file && existsSync(file)) return readFileSync(file, 'utf8').trimEnd().replaceAll(DATA_MARK, defaultDataDir());
  return computedUsage();
}

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (command && LOCAL.includes(command)) return (await import('./local')).runLocal(command, args, out);
  if (command === 'org' && args[0] === 'copy') return (await import('./copy')).orgCopy(args.slice(1), out);
  // A server's books are backed up with pg_dump, before (and without) opening them: see server-backup.ts.
  if (command === 'backup' && !args.includes('--help') && (await import('./server-backup')).namesServer(args))
    return (await import('./server-backup')).backupServerCommand(args, out);
  if (command === 'org' && args[0] === 'unarchive') return (await import('./copy')).orgUnarchive(args.slice(1), out);
  switch (command) {
    case 'login':
      return (await import('./login')).login(args, out, err);
    case 'logout':
      return (await import('./login')).logout(out);
    case '--version':
    case 'version':
      out(JSON.parse(readFileSync(findShipped('package.json'), 'utf8')).version);
      return 0;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      out(await fullUsage());
      return 0;
    case 'approve':
    case 'reject':
    case 'review':
      throw new UsageError(`There is no "${command}" command: a human reviews proposals in the Approvals screen of the app.`, await fullUsage());
  }
  // An owner command the build placed loads its group of operations alone (commands.ts), neither the agent client
  // nor the API's operations: no owner command starts with an agent command's name (test/built.test.ts).
  const placed = await (await import('./commands')).placedCommand(argv);
  if (placed) return (await import('./owner')).runOwnerCommand(placed.command, placed.rest, out, err);
  const agent = await import('./agent');
  const op = agent.agentCommands.get(command);
  if (op) return agent.runAgentCommand(op, args, out, err);
  const owner = await import('./owner');
  const found = await owner.findOwnerCommand(argv);
  if (found) return owner.runOwnerCommand(found.command, found.rest, out, err);
  // Known leading words ("tax return") with no command after them: their commands, as help when it was asked
  // for, else naming what was missing or unknown.
  const group = await owner.commandGroup(argv);
  if (group.lines.length) {
    const next = argv[group.words.split(' ').length];
    const list = `${group.lines.join('\n')}\n\nEach takes --help.`;
    if (next === '--help' || next === '-h' || next === 'help') {
      out(`The ${group.words} commands:\n${list}`);
      return 0;
    }
    const sub = next === undefined ? `"${group.words}" needs a subcommand` : `Unknown ${group.words} command "${next}"`;
    throw new UsageError(`${sub}. The ${group.words} commands:`, list);
  }
  throw new UsageError(`Unknown command "${command}".`, await fullUsage());
}

await main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      err(`ledgerdesk: ${error.message}`);
      if (error.usage) err(`\n${error.usage}`);
      process.exitCode = 2;
    } else if (error instanceof LedgerError) {
      err(`ledgerdesk: ${error.code}: ${error.message}`);
      if (error.details) err(JSON.stringify(error.details, null, 2));
      process.exitCode = 1;
    } else {
      // Includes ServerDownError, whose message says which URL was tried and how to start the server.
      err(`ledgerdesk: ${(error as Error)?.message ?? String(error)}`);
      process.exitCode = 1;
    }
  },
);
