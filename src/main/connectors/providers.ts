// The providers a connector may have (issue 52): one module each, one line
// here. The sync, the schedule, the desk's list and the commands read this list;
// a provider's own way of connecting (a SimpleFIN setup token, a Stripe key, a
// bank's sign-in) is its own `connector add` operation (desk/connectors/).
import { LedgerError } from '../ledger/core/errors';
import type { Provider } from './provider';
import { simplefin } from './simplefin';
import { stripeProvider } from './stripe/provider';
import { stripeBase } from './stripe/client';
import { enableBanking, enableBankingBase } from './enable-banking';

export interface ProviderEntry {
  // The credentials' shape is each provider's own: the sync opens them for its provider alone.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of providers with different credentials
  provider: Provider<any>;
  /** Where its service is for these credentials: a default or its LEDGERDESK_*_URL override (edge/http.ts serviceBase); SimpleFIN's is in its access URL. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
  baseUrl(credentials: any, env: NodeJS.ProcessEnv): string;
  /** Calls a day one connection may make (SimpleFIN Bridge's guidance: 24), counted by the sync; none when absent. */
  callsPerDay?: number;
}

export const PROVIDERS: readonly ProviderEntry[] = [
  { provider: simplefin, baseUrl: () => '', callsPerDay: 24 },
  { provider: enableBanking, baseUrl: (_, env) => enableBankingBase(env) },
  { provider: stripeProvider, baseUrl: (_, env) => stripeBase(env) },
];

export function providerEntry(name: string): ProviderEntry {
  const found = PROVIDERS.find((p) => p.provider.name === name);
  if (!found) throw new LedgerError('conflict', `This build has no "${name}" provider (it has ${PROVIDERS.map((p) => p.provider.name).join(', ')}).`, { provider: name });
  return found;
}
