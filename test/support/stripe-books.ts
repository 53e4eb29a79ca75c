// Books for the Stripe tests (issues 52, 53): an organization with a bank
// account, a Stripe balance account and a customer, and what the connectors'
// sync does with a provider's page until it is merged: each row the Stripe
// balance account does not hold yet (by externalId, the import's dedupe) is
// written, and the provider's settle runs in the same write.
import { randomUUID } from 'node:crypto';
import type { DeskContext } from '../../src/main/desk/operations';
import * as L from '../../src/main/ledger';
import type { FeedRow, Provider, SettledRow } from '../../src/main/connectors/provider';
import { insertTransaction } from '../../src/main/ledger/transactions/insert';
import { decimalToMinor } from '../../src/shared/amounts';
import { deskAs } from './desk';
import { tempLedger } from './env';

export interface StripeBooks {
  ctx: DeskContext;
  org: L.Organization;
  desk: <T = any>(name: string, input?: Record<string, unknown>) => Promise<T>;
  /** Imports rows into an account as the sync would, then settles them: the rows written. */
  sync: (rows: readonly FeedRow[], provider: Provider<any>, account?: string) => Promise<SettledRow[]>;
}

export async function stripeBooks(slug: string, currency = 'GBP'): Promise<StripeBooks> {
  const { ledger, dir } = await tempLedger();
  const org = await L.createOrganization(ledger, { slug, name: 'Hartley Studio', currency });
  const ctx: DeskContext = { ledger, dataDir: dir, agentUrl: '', mode: 'command', reviewer: L.deskActor() };
  const desk = <T = any>(name: string, input: Record<string, unknown> = {}) => deskAs<T>(ctx, org.id, name, input);
  if (currency === 'GBP') await L.setupTaxSet(ledger, org.seq, L.deskActor(), 'uk-vat');
  await desk('createAccount', { name: 'Current' });
  await desk('createAccount', { name: `Stripe balance (${currency})`, type: 'payment_processor', currency });
  await desk('addContact', { name: 'Berlin GmbH', customer: true });
  const sync = async (rows: readonly FeedRow[], provider: Provider<any>, account = `Stripe balance (${currency})`) =>
    ledger.forOrg(org.seq, () =>
      ledger.write(async () => {
        const acc = (await ledger.stmt('SELECT seq, id, currency FROM accounts WHERE org_seq = ? AND name = ?').get(org.seq, account)) as {
          seq: number;
          id: string;
          currency: string;
        };
        const written: SettledRow[] = [];
        for (const row of rows) {
          if (await ledger.stmt('SELECT 1 FROM transactions WHERE account_seq = ? AND external_id = ?').get(acc.seq, row.externalId)) continue;
          const id = randomUUID();
          const amountMinor = decimalToMinor(row.amount, acc.currency) as number;
          const base = { id, accountSeq: acc.seq, origin: 'feed', date: row.date, amountMinor, currency: acc.currency, description: row.description } as const;
          await insertTransaction(ledger, org.seq, { ...base, categorySeq: null, source: provider.source, externalId: row.externalId, createdAt: new Date().toISOString() });
          written.push({ transactionId: id, accountId: acc.id, row });
        }
        await provider.settle?.(ledger, org.seq, L.deskActor(), written);
        return written;
      }),
    );
  return { ctx, org, desk, sync };
}
