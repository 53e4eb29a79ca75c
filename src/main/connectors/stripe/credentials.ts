// Where an organization's Stripe credentials come from: the Stripe
// connector's, which the connectors' core keeps sealed (issue 52) and hands
// over here once, at start (stripeCredentialsFrom), as the desktop hands its
// key protection to the secrets module. Until a connector is added, an
// organization has none: a payment link or a webhook event is refused in words.
import type { Ledger } from '../../ledger/core/storage';
import { LedgerError } from '../../ledger/core/errors';
import type { StripeCredentials } from './provider';

export type StripeCredentialsSource = (ledger: Ledger, orgSeq: number) => Promise<StripeCredentials | null>;

let source: StripeCredentialsSource = () => Promise.resolve(null);

/** The connectors' core (or a test) says where the credentials are. */
export function stripeCredentialsFrom(s: StripeCredentialsSource): void {
  source = s;
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
