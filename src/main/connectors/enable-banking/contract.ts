// The parts of Enable Banking's API (its OpenAPI document, version as Actual's
// sync server bundles it: packages/sync-server/src/app-enablebanking/models/
// enablebanking-openapi.ts) that this provider reads, as zod shapes. Only what
// is used is required; everything else a bank adds passes unread.
import * as z from 'zod';

const text = z.string();
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}/, 'expected a date (YYYY-MM-DD)');
const decimal = z.string().regex(/^[-+]?\d+(\.\d+)?$/, 'expected a decimal amount ("12.50")');

export const AmountType = z.object({ currency: text, amount: decimal });

export const Aspsp = z.object({
  name: text,
  country: text,
  /** Seconds: the longest consent the bank gives. */
  maximum_consent_validity: z.number().int().positive(),
  psu_types: z.array(text).optional(),
  beta: z.boolean().optional(),
  bic: text.optional(),
  logo: text.optional(),
});
export type Aspsp = z.infer<typeof Aspsp>;
export const GetAspspsResponse = z.object({ aspsps: z.array(Aspsp) });

export const StartAuthorizationResponse = z.object({ url: z.url(), authorization_id: text.optional() });

const AccountIdentification = z.object({
  iban: text.nullish(),
  other: z.object({ identification: text, scheme_name: text.optional() }).nullish(),
});

export const AccountResource = z.object({
  uid: text.nullish(),
  account_id: AccountIdentification.nullish(),
  name: text.nullish(),
  details: text.nullish(),
  product: text.nullish(),
  currency: text,
  cash_account_type: text.nullish(),
});
export type AccountResource = z.infer<typeof AccountResource>;

const Access = z.object({ valid_until: z.string().refine((t) => !Number.isNaN(Date.parse(t)), 'expected a date-time') });
const ASPSPRef = z.object({ name: text, country: text });

export const AuthorizeSessionResponse = z.object({
  session_id: text,
  accounts: z.array(AccountResource),
  aspsp: ASPSPRef,
  access: Access,
});

export const GetSessionResponse = z.object({
  status: text,
  accounts: z.array(text),
  aspsp: ASPSPRef,
  access: Access,
});

const Party = z.object({ name: text.nullish() }).nullish();

export const Transaction = z.object({
  entry_reference: text.nullish(),
  transaction_amount: AmountType,
  creditor: Party,
  debtor: Party,
  credit_debit_indicator: z.enum(['CRDT', 'DBIT']),
  status: text,
  booking_date: date.nullish(),
  value_date: date.nullish(),
  transaction_date: date.nullish(),
  remittance_information: z.array(text).nullish(),
  reference_number: text.nullish(),
  note: text.nullish(),
  bank_transaction_code: z.object({ description: text.nullish() }).nullish(),
});
export type Transaction = z.infer<typeof Transaction>;

export const HalTransactions = z.object({
  transactions: z.array(Transaction),
  continuation_key: text.nullish(),
});

export const BalanceResource = z.object({
  name: text.nullish(),
  balance_amount: AmountType,
  balance_type: text,
  reference_date: date.nullish(),
  last_change_date_time: text.nullish(),
});
export type BalanceResource = z.infer<typeof BalanceResource>;
export const HalBalances = z.object({ balances: z.array(BalanceResource) });
