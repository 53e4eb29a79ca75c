// Connecting a bank through Enable Banking: the banks of a country, the link
// the person opens to give their bank's consent (POST /auth), and the session
// the redirect's code makes (POST /sessions), whose accounts are then mapped to
// ledger accounts. The screens and `connector add` call these; where the
// redirect comes back to (the server's address, or a loopback listener of the
// command's own) is theirs to choose.
import { OutsideError } from '../../edge/http';
import type { FeedAccount } from '../provider';
import { ebCall, type CallContext, type CallTuning } from './client';
import { AuthorizeSessionResponse, GetAspspsResponse, StartAuthorizationResponse, type Aspsp } from './contract';
import { SERVICE } from './jwt';
import { feedAccount } from './mapping';
import type { EnableBankingCredentials } from './provider';

/** Consent asked for this much shorter than the bank's longest, so a clock a little fast is not refused for asking past it. */
const CLOCK_MARGIN_SECONDS = 300;

/** A bank as a person picks it. */
export interface Bank {
  name: string;
  country: string;
  /** Days the bank's consent lasts at most (maximum_consent_validity). */
  consentDays: number;
  psuTypes: string[];
  beta: boolean;
}

const asBank = (a: Aspsp): Bank => ({
  name: a.name,
  country: a.country,
  consentDays: Math.floor(a.maximum_consent_validity / 86400),
  psuTypes: a.psu_types ?? [],
  beta: a.beta ?? false,
});

const countryOf = (country: string) => {
  const code = country.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(code)) throw new OutsideError(SERVICE, 'refused', `${SERVICE}: the country must be a two-letter code (GB, DE, FI...), not "${country.slice(0, 20)}".`);
  return code;
};

async function aspsps(ctx: CallContext, country: string, tuning?: CallTuning): Promise<Aspsp[]> {
  const { aspsps: found } = await ebCall(ctx, 'the banks of a country', '/aspsps', GetAspspsResponse, { query: { country: countryOf(country), service: 'AIS' }, tuning });
  return found;
}

/** The banks of a country (GET /aspsps?country=XX), by name. */
export async function banks(ctx: CallContext, country: string, tuning?: CallTuning): Promise<Bank[]> {
  return (await aspsps(ctx, country, tuning)).map(asBank).sort((a, b) => a.name.localeCompare(b.name));
}

/** The bank named `name` in `country` (its name as Enable Banking lists it, any case), or an error naming close ones. */
async function findBank(ctx: CallContext, name: string, country: string, tuning?: CallTuning): Promise<Aspsp> {
  const all = await aspsps(ctx, country, tuning);
  const wanted = name.trim().toLowerCase();
  const found = all.find((a) => a.name === name) ?? all.find((a) => a.name.toLowerCase() === wanted);
  if (found) return found;
  const close = all.filter((a) => a.name.toLowerCase().includes(wanted.slice(0, 4))).slice(0, 5);
  throw new OutsideError(
    SERVICE,
    'refused',
    `${SERVICE} lists no bank named "${name.slice(0, 80)}" in ${countryOf(country)}${close.length ? `; did you mean ${close.map((a) => `"${a.name}"`).join(', ')}?` : ` (${all.length} banks there).`}`,
  );
}

export interface BeginConnect {
  bank: string;
  country: string;
  /** Where the bank sends the person back: registered in the application's redirect URLs. */
  redirectUrl: string;
  /** Returned with the code: checked by whoever receives the redirect. */
  state: string;
  /** personal (the default) or business, as the bank offers. */
  psuType?: 'personal' | 'business';
}

/** The link the person opens to sign in at their bank and consent (POST /auth), for as long as the bank allows. */
export async function beginConnect(ctx: CallContext, o: BeginConnect, tuning?: CallTuning): Promise<{ url: string; validUntil: string; bank: Bank }> {
  const aspsp = await findBank(ctx, o.bank, o.country, tuning);
  const seconds = Math.max(3600, aspsp.maximum_consent_validity - CLOCK_MARGIN_SECONDS);
  const validUntil = new Date(ctx.now.getTime() + seconds * 1000).toISOString();
  const body = {
    access: { valid_until: validUntil, balances: true, transactions: true },
    aspsp: { name: aspsp.name, country: aspsp.country },
    state: o.state,
    redirect_url: o.redirectUrl,
    psu_type: o.psuType ?? 'personal',
  };
  // One attempt: each POST /auth starts an authorization of its own.
  const started = await ebCall(ctx, 'the link to the bank', '/auth', StartAuthorizationResponse, { body, tuning, attempts: 1 });
  return { url: started.url, validUntil, bank: asBank(aspsp) };
}

export interface Connected {
  credentials: EnableBankingCredentials;
  accounts: FeedAccount[];
  /** ISO date-time the bank's consent lapses (the session's access.valid_until). */
  consentExpiresAt: string;
  bank: { name: string; country: string };
}

/** The redirect's code made into a session (POST /sessions, once: a code is good for one exchange). */
export async function completeConnect(ctx: CallContext, code: string, tuning?: CallTuning): Promise<Connected> {
  if (!code.trim()) throw new OutsideError(SERVICE, 'refused', `${SERVICE} sent no code back from the bank.`);
  const session = await ebCall(ctx, 'the new session', '/sessions', AuthorizeSessionResponse, { body: { code }, tuning, attempts: 1 });
  // An account without a uid cannot be read (the bank blocks or closed it): nothing to map.
  const accounts = session.accounts.flatMap((a) => (a.uid ? [feedAccount({ ...a, uid: a.uid })] : []));
  if (!accounts.length) throw new OutsideError(SERVICE, 'refused', `${SERVICE}: the bank shared no account that can be read; connect again and choose at least one account.`);
  return {
    credentials: { ...ctx.credentials, sessionId: session.session_id },
    accounts,
    consentExpiresAt: new Date(session.access.valid_until).toISOString(),
    bank: session.aspsp,
  };
}
