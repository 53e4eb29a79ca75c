// Where an organization's Stripe credentials come from: its Stripe
// connector's, which the connectors' core keeps sealed (issue 52), opened for
// the one call (a test may point elsewhere: stripeCredentialsFrom). Until a
// connector is added, an organization has none: a payment link or a webhook
// event is refused in words.
import type { Ledger } from '../../ledger/core/storage';
import { LedgerError } from '../../ledger/core/errors';
import { connectorRows, openCredentials } from '../../ledger/feeds/connectors';
import type { StripeCredentials } from './provider';

export type StripeCredentialsSource = (ledger: Ledger, orgSeq: number) => Promise<StripeCredentials | null>;

/** By default, the organization's Stripe connector (the first connected one), its credentials opened for this call. */
async function fromConnector(ledger: Ledger, orgSeq: number): Promise<StripeCredentials | null> {
  const row = (await connectorRows(ledger, orgSeq)).find((c) => c.provider === 'stripe' && c.credentials);
  return row ? openCredentials<StripeCredentials>(ledger, row) : null;
}

let source: StripeCredentialsSource = fromConnector;

/** A test says where the credentials are; answers how to put back the source before it. */
export function stripeCredentialsFrom(s: StripeCredentialsSource): () => void {
  const before = source;
  source = s;
  return () => {
    source = before;
  };
}

/** The organization's Stripe key (and webhook secret), opened just for the call; null: no Stripe connector. */
export const stripeCredentialsOf: StripeCredentialsSource = (ledger, orgSeq) => source(ledger, orgSeq);

/** The key, or a refusal that says what to do. */
export async function requireStripeKey(ledger: Ledger, orgSeq: number): Promise<StripeCredentials> {
  const found = await stripeCredentialsOf(ledger, orgSeq);
  if (!found)
    throw new LedgerError('conflict', 'This organization has no Stripe connector: add one (Connections, or `ledgerdesk connector add stripe --key-stdin`) first.', {
      reason: 'no_stripe_connector',
    });
  return found;
}
