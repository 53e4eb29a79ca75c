// What a proposal kind is: one module per kind (kinds/) holds everything about
// it, from the payload an agent's request becomes to what the Approvals card
// shows, what approval changes and how a reversal puts it back. Creating,
// reviewing, reversing and listing proposals loop over the kinds (kinds/index.ts).
import type * as z from 'zod';
import type { Human } from '../access/audit';
import type { Ledger } from '../core/sqlite/open';
import { fromMinor } from '../core/money';
import type { ProposalRow } from './row';
import type { MailableKind } from '../mail/compose';
import type { DeskOperationName } from '../../../shared/desk';

export interface KindContext {
  ledger: Ledger;
  orgSeq: number;
}

/** A proposal before it is stored: its payload, the transaction it is about, and a line for the audit log. */
export interface Draft<P> {
  payload: P;
  /** null for a journal entry, which makes a transaction. */
  transactionSeq: number | null;
  summary: string;
}

/** A row as a card shows it. */
export interface Glance {
  id: string | null;
  date: string;
  description: string;
  amount: number;
  currency: string;
  account: string | null;
  category: string | null;
}

/** What a card shows of the change a proposal would make, the same for every kind. */
export interface ChangeView {
  /** Words before the row: "New entry", "Receipt invoice.pdf for", "Note on". */
  lead: string | null;
  /** The row it changes (for a journal entry, the row it would enter). */
  subject: Glance | null;
  /** What the row becomes: a category name and code, or a word. */
  result: { text: string; code: string | null } | null;
  /** A split the approval would make: each line's category and its part of the row (positive; negative and `against` when it goes against the row). */
  split: { code: string; name: string; amount: number; against: boolean; memo: string | null }[] | null;
  /** The tax the approval would post (issue 28): the row's net and tax at the code named or the category's default. */
  tax: { code: string; net: number; tax: number } | null;
  /** Text it adds (a note's content). */
  quote: string | null;
  /** A journal entry's row goes into an account of its currency: the reviewer may pick one. */
  account: { currency: string; defaultId: string | null } | null;
  /** A journal entry with lines (issue 43): the journal approval would enter, each line debit or credit, its tax worked out. */
  journal: { lines: { account: string; code: string | null; debit: number; credit: number; taxCode: string | null; memo: string | null }[] } | null;
  /** Approve and remember can draft a rule from it. */
  rememberable: boolean;
}

/** What approval changed, tagged by its kind, so that a reversal can put it back. */
export interface Applied<O> {
  summary: string;
  outcome: O;
}

/** A document's message as a preparer asked for it to go (issue 53): every part resolved when proposed. */
export interface DocumentSendRequest {
  kind: MailableKind;
  /** The document's id. */
  ref: string;
  to: string[];
  subject: string;
  body: string;
  copyTo: string | null;
}

export interface ApplyOptions {
  reviewer: Human;
  /** A journal entry's account, by id or name (the default account otherwise). */
  account?: string;
  /**
   * Sends a document by mail through the organization's server and records it (a document send's approval). Handed in
   * by the desk (src/main/mail/send.ts): the ledger calls out to nothing itself. Its failure fails the approval.
   */
  send?: (request: DocumentSendRequest) => Promise<{ messageId: string; to: string[] }>;
}

export interface ProposalKind<T extends string, I, P, O> {
  readonly type: T;
  /**
   * The desk operation that makes this change at once (issue 50): whoever may run it, and not as a proposal, approves
   * a proposal of this kind (desk/proposals/review.ts). A journal is entered by an accountant or an owner, so a
   * bookkeeper who may not enter one may not approve one either.
   */
  readonly approvedAs: DeskOperationName;
  /** The payload as stored and answered (OpenAPI, MCP output schemas). */
  readonly payload: z.ZodType<P>;
  /** An agent's request checked against the books and turned into what would be stored. */
  draft(ctx: KindContext, input: I): Promise<Draft<P>>;
  /** The change approval would make, as text: identical proposals (same kind and effect) share it. */
  changeKey(payload: P, transactionSeq: number | null): string;
  /** The transaction it is about, if any: its pending proposals go when the row does. */
  transactionId(payload: P): string | null;
  /**
   * The dates in the books its approval would change: a closing date on or after one refuses the proposal,
   * its approval and its reversal (access/closing.ts). None for kinds that only attach evidence (notes, receipts).
   */
  datesChanged?(ctx: KindContext, payload: P): string[] | Promise<string[]>;
  apply(ctx: KindContext, row: ProposalRow, payload: P, options: ApplyOptions): Promise<Applied<O>>;
  /** Puts back what apply changed, or refuses (reversal.ts says why); answers a line for the audit log. */
  undo(ctx: KindContext, row: ProposalRow, payload: P, outcome: O): Promise<string>;
  view(ctx: KindContext, payload: P): Promise<ChangeView>;
}

/** Twelve digits: change keys sort (and go into their index) in the transactions' order. */
export const keyTarget = (transactionSeq: number | null): string => String(transactionSeq).padStart(12, '0');

/** A transaction as a card shows it, by id (null when it is gone). */
export async function glanceOf(ctx: KindContext, id: string): Promise<Glance | null> {
  const t = (await ctx.ledger
    .stmt(
      `SELECT t.id, t.date, t.description, t.amount_minor, t.currency, c.name AS category, a.name AS account
       FROM transactions t JOIN accounts a ON a.seq = t.account_seq LEFT JOIN categories c ON c.seq = t.category_seq WHERE t.id = ? AND t.org_seq = ?`,
    )
    .get(id, ctx.orgSeq)) as { id: string; date: string; description: string; amount_minor: number; currency: string; category: string | null; account: string } | undefined;
  return t
    ? { id: t.id, date: t.date, description: t.description, amount: fromMinor(t.amount_minor, t.currency), currency: t.currency, account: t.account, category: t.category }
    : null;
}

export const NO_VIEW: Omit<ChangeView, 'subject'> = { lead: null, result: null, split: null, tax: null, quote: null, account: null, journal: null, rememberable: false };
