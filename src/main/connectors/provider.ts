// One shape for every feed (issue 52): a provider module turns its service's
// answers into rows the import already knows, and nothing more. Which rows are
// new, pending, changed or renumbered, how they are written and audited, the
// cursor and the schedule belong to the sync (src/main/connectors/sync*), once
// for every provider. Adding a provider is one module plus one line in
// providers.ts.
import type { TransactionSource } from '../../../db/values';
import type { Actor } from '../ledger/access/audit';
import type { Ledger } from '../ledger/core/storage';

/** An account the provider reports, to be mapped to a ledger account. */
export interface FeedAccount {
  /** The provider's id of the account (Enable Banking's account uid, SimpleFIN's account id, Stripe's balance per currency). */
  id: string;
  name: string;
  currency: string;
  /** How a person recognizes it: an IBAN, or the last four digits of its number. */
  iban?: string | null;
  last4?: string | null;
}

/** One row as the provider states it: amounts signed from the account's side (money in is positive). */
export interface FeedRow {
  /** The provider's id, unique within the account (Enable Banking's entry_reference, SimpleFIN's id, Stripe's txn id and a suffix per part). */
  externalId: string;
  /** When the row is or will be booked, YYYY-MM-DD. */
  date: string;
  /** Signed decimal text in the account's currency, '.' as the decimal point ("-12.50"). */
  amount: string;
  description: string;
  /** Not yet booked by the bank: shown, counted nowhere, replaced by its booked row. */
  pending: boolean;
  /** Where a provider links a pending row to the booked row it became (its id), when it does. */
  pendingId?: string | null;
  /** What a payment processor's row is (a charge's gross, its fee, a refund, a dispute, a payout), for its posting. */
  kind?: 'charge' | 'fee' | 'refund' | 'dispute' | 'payout' | 'adjustment' | null;
  /** An invoice number the row names (a Stripe charge's metadata), so its payment can be matched. */
  invoiceNumber?: string | null;
}

/** A balance the provider states for an account, for reconciliation. */
export interface FeedBalance {
  date: string;
  amount: string;
  /** The provider's kind of balance (closingBooked, available, Stripe's available or pending). */
  kind: string;
}

/** A page of rows and the cursor to resume from after it: committed with the rows, so a sync killed midway resumes without a gap or a duplicate. */
export interface FeedPage {
  rows: FeedRow[];
  /** Opaque to the sync; null: nothing more to fetch now. */
  next: string | null;
  /**
   * With `next` null: where the next sync starts (opaque too), when not from this page's own cursor; a provider
   * without paging of its own gives the start of the window it fetches again (pending rows, late changes).
   */
  resume?: string | null;
}

/** What a provider call is given: its credentials (opened just for the call), where the service is, and the time. */
export interface ProviderContext<Credentials> {
  credentials: Credentials;
  /** The service's base address (a default, or the LEDGERDESK_*_URL override checked by connectors/http.ts). */
  baseUrl: string;
  /** The clock: passed in, never read inside a provider. */
  now: Date;
}

/** The consent a provider's connection rests on, where it lapses (Enable Banking's valid_until). */
export interface Consent {
  expiresAt: string | null;
}

export interface Provider<Credentials = unknown> {
  /** The stored provider name: `enable-banking`, `simplefin`, `stripe`. */
  name: string;
  /** As a person reads it. */
  label: string;
  source: Extract<TransactionSource, 'bankfeed' | 'paymentproc'>;
  /** How long the connection's consent lasts, when it lapses. */
  consent(ctx: ProviderContext<Credentials>): Promise<Consent>;
  accounts(ctx: ProviderContext<Credentials>): Promise<FeedAccount[]>;
  /**
   * The rows of one account from a cursor (null: the first sync, from `since`), a page at a time. Booked rows
   * already fetched may come again (a bank's overlap window); the sync tells them apart by externalId.
   */
  rows(ctx: ProviderContext<Credentials>, account: FeedAccount, cursor: string | null, since: string): Promise<FeedPage>;
  balances(ctx: ProviderContext<Credentials>, account: FeedAccount): Promise<FeedBalance[]>;
  /**
   * What a provider knows its rows to be, applied by the sync inside the same ledger.write as the batch that
   * imported them (so both commit or neither): a payment processor posts a fee to its expense account, pays the
   * invoice a charge names. Bank feeds have none: their rows arrive uncategorized.
   */
  settle?(ledger: Ledger, orgSeq: number, actor: Actor, imported: readonly SettledRow[]): Promise<void>;
  /**
   * What a provider does at its service once a sync's rows are committed (Stripe switches off the payment links of
   * invoices the sync paid). Its failure is logged and fails nothing: the next sync does it again.
   */
  afterSync?(ledger: Ledger, orgSeq: number, actor: Actor, ctx: ProviderContext<Credentials>): Promise<void>;
}

/** A row the sync just imported, and the transaction it became. */
export interface SettledRow {
  transactionId: string;
  /** The ledger account the row was imported into (the connector's mapped account). */
  accountId: string;
  row: FeedRow;
}
