#!/usr/bin/env node
// `ledgerdesk`: the owner's local commands and (see agent.ts) the agent client.
import { LedgerError } from '../main/ledger/errors';
import { demo, LOCAL_USAGE, org, serve, token } from './local';
import { UsageError } from './usage';

const out = (line: string) => process.stdout.write(`${line}\n`);
const err = (line: string) => process.stderr.write(`${line}\n`);

const USAGE = `Usage: ledgerdesk <command> [flags]

${LOCAL_USAGE}

  help                                              this text`;

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  switch (command) {
    case 'serve':
      await serve(args, out);
      return 0;
    case 'token':
      token(args, out);
      return 0;
    case 'demo':
      demo(args, out);
      return 0;
    case 'org':
      org(args, out);
      return 0;
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      out(USAGE);
      return 0;
    default:
      throw new UsageError(`Unknown command "${command}".`, USAGE);
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
      err(`ledgerdesk: ${(error as Error)?.message ?? String(error)}`);
      process.exitCode = 1;
    }
  },
);
