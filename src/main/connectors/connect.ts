// Connecting (issue 52), once for every provider: a provider's own add
// operation gets its credentials (SimpleFIN claims a setup token, Stripe takes a
// key, a bank's sign-in gives a session) and hands them here: the accounts the
// provider reports and its consent are read, the connector saved with the
// credentials sealed (or a connector of the same name reconnected, its history
// kept), and with `account` its one reported account mapped.
import type { Actor } from '../ledger/access/audit';
import type { Ledger } from '../ledger/core/storage';
import { mapFeedAccount, saveConnector } from '../ledger/feeds/connectors';
import { connectorViews, type ConnectorView } from '../ledger/feeds/view';
import { providerEntry } from './providers';

export interface ConnectInput<C> {
  provider: string;
  name: string;
  credentials: C;
  /** A ledger account (id, name, or a new one's name) for a provider that reports one account. */
  account?: string;
  now: Date;
  env?: NodeJS.ProcessEnv;
}

export async function addConnector<C>(ledger: Ledger, orgSeq: number, actor: Actor, input: ConnectInput<C>): Promise<ConnectorView> {
  const entry = providerEntry(input.provider);
  const ctx = { credentials: input.credentials, baseUrl: entry.baseUrl(input.credentials, input.env ?? process.env), now: input.now };
  const accounts = await entry.provider.accounts(ctx);
  const consent = await entry.provider.consent(ctx);
  const row = await saveConnector(ledger, orgSeq, actor, {
    name: input.name,
    provider: input.provider,
    credentials: input.credentials,
    consentExpiresAt: consent.expiresAt,
    accounts,
  });
  if (input.account) await mapFeedAccount(ledger, orgSeq, actor, row.id, { account: input.account });
  return (await connectorViews(ledger, orgSeq, input.now)).find((c) => c.id === row.id)!;
}
