// What a desk operation is: a zod input, a function, and optionally the owner
// command that runs it from a terminal. IPC (desktop), the session-protected
// HTTP route (browser) and the `ledgerdesk` owner commands all run these, and
// nothing else, so a rule checked here is checked everywhere.
import * as z from 'zod';
import { Amount, Line, Uuid } from '../api/fields';
import type { Ledger } from '../ledger/core/storage';
import { requireOrganization } from '../ledger/access/organizations';
import type { Proposal } from '../ledger/proposals/proposals';
import type { Human } from '../ledger/access/audit';
import { PROPOSING, type Role } from './roles';
import type { StagingLimits } from './staged-limits';
import type { SeenRequest } from '../api/seen';

export type Reviewer = Human;

export interface DeskContext {
  ledger: Ledger;
  /** The data folder: receipts, uploaded statements and backups live under it. */
  dataDir: string;
  /** Where agents connect, shown in the app (empty for owner commands). */
  agentUrl: string;
  /** The server's public address (serve --public-url), for links handed to people. */
  publicUrl?: string;
  /** Owner commands may name files by path; the app's windows only by an upload's id. */
  mode: 'desktop' | 'browser' | 'command';
  reviewer: Reviewer;
  /** The person signed in (issue 45); none: the machine's owner (the desktop app, a command, the one-time link). */
  person?: DeskPerson | null;
  /** Their role in the organization the operation runs for (set by desk/scope.ts; the machine's owner: owner). */
  role?: Role;
  /** Rows read so far by a long operation, by file (the Import screen polls it). */
  progress?: Map<string, { phase: string; rows: number }>;
  /** Owner commands: where an export without --out goes. */
  stdout?: NodeJS.WritableStream;
  /** What uploads may stage (staged-limits.ts): read once at a server's start; absent, from the environment. */
  staging?: StagingLimits;
  /** Desktop: opens a file in the computer's own viewer (Electron's shell.openPath). */
  openPath?: (path: string) => Promise<void>;
  /** Desktop: opens an https link in the computer's browser (Electron's shell.openExternal); sign-in links only (sign-in-links.ts). */
  openExternal?: (url: string) => Promise<void>;
  /** A browser's request as the server saw it (its address and port, or what the trusted proxy says): HMRC's web headers. */
  seen?: SeenRequest;
}

/** A person signed in to the desk. */
export interface DeskPerson {
  seq: number;
  id: string;
  name: string;
  email: string;
  /** Whether they enrolled a second factor. */
  totp: boolean;
}

/** How an operation is offered as `ledgerdesk <name> [args] [--flags]`. */
export interface CommandSpec<R> {
  name: string;
  summary: string;
  /** Input fields taken from positional arguments, in order; `name...` takes the rest as a list. */
  args?: string[];
  /** Human output; --json prints the result as it is. */
  print?: (result: R) => string[];
  /** Ran, but did not do what was asked (an import with bad rows): exit 1. */
  failed?: (result: R) => boolean;
  /** The result as CSV, printed with --csv. */
  csv?: (result: R) => string;
  /** List fields given as a repeated flag, each value whole (not split on commas). */
  repeated?: string[];
  /** Flags named otherwise than their input field (dateFrom as --from). */
  flags?: Record<string, string>;
}

export interface DeskOperation<I extends z.ZodType, R> {
  /** Who may run it (desk/roles.ts); the machine's owner always may. */
  roles: readonly Role[];
  input: I;
  run(ctx: DeskContext, input: z.output<I>): R | Promise<R>;
  command?: CommandSpec<Awaited<R>>;
}

/** A desk operation: who may run it, its input, what it does, and the owner command that runs it. */
export const op = <I extends z.ZodType, R>(
  roles: readonly Role[],
  input: I,
  run: (ctx: DeskContext, input: z.output<I>) => R | Promise<R>,
  command?: CommandSpec<Awaited<R>>,
): DeskOperation<I, R> => ({
  roles,
  input,
  run,
  command,
});

/** What a preparer's change answers (issue 45): the proposals it filed, waiting in Approvals. */
export interface Proposed {
  proposed: Proposal[];
}
export const isProposed = (result: unknown): result is Proposed => typeof result === 'object' && result !== null && 'proposed' in result;

/**
 * An operation whose change, made by a preparer, becomes proposals a bookkeeper approves (issue 45): the same
 * operation, the same input, so that no screen or client can write past the review by calling it.
 */
export function proposable<I extends z.ZodType, R>(
  operation: DeskOperation<I, R>,
  propose: (ctx: DeskContext, input: z.output<I>) => Promise<Proposal | Proposal[]>,
): DeskOperation<I, Awaited<R> | Proposed> {
  const command = operation.command;
  return {
    ...operation,
    run: async (ctx, input): Promise<Awaited<R> | Proposed> =>
      ctx.role && PROPOSING.includes(ctx.role) ? { proposed: [await propose(ctx, input)].flat() } : await operation.run(ctx, input),
    // Owner commands run as the machine's owner, never a preparer: their output stays the operation's own.
    command: command as CommandSpec<Awaited<R> | Proposed> | undefined,
  };
}

/**
 * An amount as a person types it ("-1,234.56", "1.234,56", "(45.00)") or a
 * number: text is read by the one amount reader with the organization's
 * decimal mark (shared/amounts.ts), and refused, saying what was read, where
 * it could mean two numbers.
 */
export const TypedAmount = z.union([Amount, Line(40).trim().min(1, 'is empty')]);

export const Org = { orgId: Uuid.describe('The organization (owner commands take --org <slug> instead)') };
export const Page = (max: number) => ({
  limit: z.int().min(1).max(max).default(50),
  offset: z.int().min(0).default(0),
});
/**
 * An owner command's last line under a page of a list, so it never stops without saying more exist:
 * "1-50 of 62 rates (--offset 50 for more)", "51-62 of 62 rates", "62 rates" when one page holds them all.
 * `more` names the way on where there is no --offset ("--limit 500").
 */
export function pageLine(page: { offset?: number; shown: number; total: number }, noun: string, more?: string): string {
  const { offset = 0, shown, total } = page;
  const count = (n: number) => `${n} ${n === 1 ? noun : `${noun}s`}`;
  if (offset === 0 && shown === total) return count(total);
  if (shown === 0) return `None from --offset ${offset}: ${count(total)} in all.`;
  const next = offset + shown;
  return `${offset + 1}-${next} of ${count(total)}${next < total ? ` (${more ?? `--offset ${next}`} for more)` : ''}`;
}
export const orgSeq = async (ctx: DeskContext, orgId: string): Promise<number> => (await requireOrganization(ctx.ledger, orgId)).seq;
