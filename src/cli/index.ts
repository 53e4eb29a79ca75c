#!/usr/bin/env node
// `ledgerdesk`: the owner's local commands (local.ts, loaded only when used) and
// the agent client (agent.ts), which talks to the REST API with a token.
import { setFlagsFromString } from 'node:v8';
import { LedgerError } from '../main/ledger/errors';
import { agentCommands, kebab, runAgentCommand } from './agent';
import { login, logout } from './login';
import { operations } from '../main/api/registry';
import { UsageError } from './usage';

// A command is short-lived and may hold a large statement: let the heap grow by a
// fifth of what is live, not several times it (a 1,000,000-row import peaks at
// ~400 MB instead of ~650 MB, no slower).
setFlagsFromString('--heap-growing-percent=20');

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

const LOCAL = ['serve', 'token', 'demo', 'org', 'restore'];

function usage(localUsage: string, ownerUsage: string): string {
  const agent = operations.map((op) => `  ${op.operationId.padEnd(24)} ${op.title}`).join('\n');
  return `Usage: ledgerdesk <command> [flags]

Agent commands (REST API with a token; names also work with dashes, e.g. ${kebab('list_transactions')}):
${agent}
  Each takes --json, --token, --url and --help. Writes are proposals a human reviews in Approvals.

  login [--url <u>] [--token <t>]   check a token and save it with the URL (0600)
  logout                            forget the saved token

${localUsage}
${ownerUsage}
  Each takes --org, --data, --json and --help; exit 0 done, 1 refused, 2 misuse.

  help                              this text`;
}

async function fullUsage(): Promise<string> {
  const { ownerCommands } = await import('./owner');
  const owner = ownerCommands.map((c) => `  ${`${c.spec.name}${(c.spec.args ?? []).map((a) => ` <${a}>`).join('')}`.padEnd(34)}${c.spec.summary}`).join('\n');
  return usage((await import('./local')).LOCAL_USAGE, owner);
}

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  const op = command === undefined ? undefined : agentCommands.get(command);
  if (op) return runAgentCommand(op, args, out, err);
  if (command && LOCAL.includes(command)) return (await import('./local')).runLocal(command, args, out);
  switch (command) {
    case 'login':
      return login(args, out, err);
    case 'logout':
      return logout(out);
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
    default: {
      const owner = await import('./owner');
      const found = owner.findOwnerCommand(argv);
      if (found) return owner.runOwnerCommand(found.command, found.rest, out);
      throw new UsageError(`Unknown command "${command}".`, await fullUsage());
    }
  }
}

main(process.argv.slice(2)).then(
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
