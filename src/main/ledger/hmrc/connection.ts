// An organization's connection to HMRC (issue 54): its VAT registration number,
// the state of a sign-in under way (hashed; any process takes the redirect), and
// the tokens HMRC granted, sealed (core/secrets). The refresh token lives 18
// months from the sign-in: its end is shown, and warned about in its last 30 days.
import { createHash, timingSafeEqual } from 'node:crypto';
import { appendAudit, type Human } from '../access/audit';
import { newId, nowIso } from '../core/clock';
import { invalid, LedgerError } from '../core/errors';
import { openSecretOrAsk, sealSecret } from '../core/secrets/sealed';
import type { Ledger } from '../core/storage';

/** How long a sign-in to HMRC may take before its state lapses. */
const PENDING_MINUTES = 15;
const WARN_DAYS = 30;

export interface HmrcConnection {
  vrn: string;
  connected: boolean;
  connectedAt: string | null;
  connectedBy: string | null;
  /** When the person must sign in to HMRC again (18 months from the sign-in). */
  refreshExpiresAt: string | null;
  /** Said when that is within 30 days, or past. */
  warning: string | null;
}

export interface OpenTokens {
  id: string;
  vrn: string;
  accessToken: string;
  refreshToken: string;
  accessExpiresAt: string;
  refreshExpiresAt: string;
}

interface Row {
  id: string;
  vrn: string;
  pending_state: string | null;
  pending_until: string | null;
  redirect_uri: string | null;
  access_token: string | null;
  access_expires_at: string | null;
  refresh_token: string | null;
  refresh_expires_at: string | null;
  connected_at: string | null;
  connected_by: string | null;
}

/** A VAT registration number: 9 digits passing HMRC's check (the weighted sum 8..2 with the last two, modulus 97 or 9755). */
export function checkVrn(text: string): string {
  const vrn = text.replace(/\s+/g, '').replace(/^GB/i, '');
  if (!/^\d{9}$/.test(vrn)) throw invalid([{ field: 'vrn', message: 'is the VAT registration number: 9 digits (GB and spaces may be left out)' }]);
  const sum = [...vrn.slice(0, 7)].reduce((s, d, i) => s + Number(d) * (8 - i), 0) + Number(vrn.slice(7));
  if (sum % 97 !== 0 && (sum + 55) % 97 !== 0) throw invalid([{ field: 'vrn', message: `${vrn} is not a VAT registration number (its check digits do not match): check it` }]);
  return vrn;
}

const hashState = (state: string) => createHash('sha256').update(state).digest('hex');
const rowOf = async (ledger: Ledger, orgSeq: number) => (await ledger.stmt('SELECT * FROM hmrc_connections WHERE org_seq = ?').get(orgSeq)) as Row | undefined;

export function refreshWarning(refreshExpiresAt: string | null, now: Date): string | null {
  if (!refreshExpiresAt) return null;
  const days = Math.floor((Date.parse(refreshExpiresAt) - now.getTime()) / 86_400_000);
  if (days < 0) return `HMRC's permission lapsed on ${refreshExpiresAt.slice(0, 10)}: connect to HMRC again to submit.`;
  if (days <= WARN_DAYS) return `HMRC's permission lapses on ${refreshExpiresAt.slice(0, 10)} (in ${days} day(s)): connect to HMRC again before then.`;
  return null;
}

/** The organization's connection as a person sees it (no token), or null. */
export async function hmrcConnection(ledger: Ledger, orgSeq: number, now = new Date()): Promise<HmrcConnection | null> {
  const r = await rowOf(ledger, orgSeq);
  if (!r) return null;
  const connected = r.refresh_token !== null;
  return {
    vrn: r.vrn,
    connected,
    connectedAt: r.connected_at,
    connectedBy: r.connected_by,
    refreshExpiresAt: r.refresh_expires_at,
    warning: connected ? refreshWarning(r.refresh_expires_at, now) : null,
  };
}

/** A sign-in begins: the VRN (checked) and the hashed state kept, with where HMRC sends the browser back. */
export async function beginHmrcConnection(ledger: Ledger, orgSeq: number, input: { vrn: string; state: string; redirectUri: string }, now = new Date()): Promise<void> {
  const vrn = checkVrn(input.vrn);
  const until = new Date(now.getTime() + PENDING_MINUTES * 60_000).toISOString();
  await ledger.write(async () => {
    const r = await rowOf(ledger, orgSeq);
    if (r) {
      // Another VRN's obligations are not this one's (ledger/hmrc/obligations.ts): the SET reads the old vrn.
      await ledger
        .stmt(
          `UPDATE hmrc_connections SET vrn = ?, pending_state = ?, pending_until = ?, redirect_uri = ?,
           open_obligations = CASE WHEN vrn = ? THEN open_obligations END, obligations_fetched_at = CASE WHEN vrn = ? THEN obligations_fetched_at END
           WHERE org_seq = ?`,
        )
        .run(vrn, hashState(input.state), until, input.redirectUri, vrn, vrn, orgSeq);
    } else {
      await ledger
        .stmt('INSERT INTO hmrc_connections (id, org_seq, vrn, pending_state, pending_until, redirect_uri) VALUES (?, ?, ?, ?, ?, ?)')
        .run(newId(), orgSeq, vrn, hashState(input.state), until, input.redirectUri);
    }
  });
}

/** The sign-in a state belongs to (its redirect address), refused when the state is not the one sent or lapsed. */
export async function pendingHmrcConnection(ledger: Ledger, orgSeq: number, state: string, now = new Date()): Promise<{ redirectUri: string }> {
  const r = await rowOf(ledger, orgSeq);
  const sent = r?.pending_state ?? '';
  const got = hashState(state);
  if (!r || !r.redirect_uri || sent.length !== got.length || !timingSafeEqual(Buffer.from(sent), Buffer.from(got))) {
    throw new LedgerError('conflict', 'The answer from HMRC is not the one this sign-in asked for (its state differs): connect again.', { reason: 'state' });
  }
  if ((r.pending_until ?? '') < now.toISOString()) throw new LedgerError('conflict', 'The sign-in to HMRC took too long: connect again.', { reason: 'state' });
  return { redirectUri: r.redirect_uri };
}

/** HMRC's tokens kept, sealed; the state is used up; audited. */
export async function completeHmrcConnection(
  ledger: Ledger,
  orgSeq: number,
  actor: Human,
  state: string,
  tokens: { accessToken: string; refreshToken: string; accessExpiresAt: string; refreshExpiresAt: string },
): Promise<HmrcConnection> {
  await ledger.write(async () => {
    const r = (await rowOf(ledger, orgSeq))!;
    const used = await ledger
      .stmt(
        `UPDATE hmrc_connections SET pending_state = NULL, pending_until = NULL, access_token = ?, access_expires_at = ?, refresh_token = ?, refresh_expires_at = ?, connected_at = ?, connected_by = ?
         WHERE org_seq = ? AND pending_state = ?`,
      )
      .run(
        sealSecret(ledger, 'hmrcAccess', r.id, tokens.accessToken),
        tokens.accessExpiresAt,
        sealSecret(ledger, 'hmrcRefresh', r.id, tokens.refreshToken),
        tokens.refreshExpiresAt,
        nowIso(),
        actor.name,
        orgSeq,
        hashState(state),
      );
    if (!used.changes) throw new LedgerError('conflict', 'This sign-in to HMRC was already used: connect again.', { reason: 'state' });
    await appendAudit(ledger, orgSeq, actor, {
      action: 'hmrc.connected',
      targetType: 'hmrc_connection',
      targetId: r.id,
      summary: `Connected to HMRC for VAT registration number ${r.vrn} (read:vat write:vat) until ${tokens.refreshExpiresAt.slice(0, 10)}`,
    });
  });
  return (await hmrcConnection(ledger, orgSeq))!;
}

const RECONNECT = 'Connect to HMRC again (the Tax screen, or ledgerdesk hmrc connect).';

/** The tokens, opened, for a call to HMRC; refused where the organization is not connected. */
export async function hmrcTokens(ledger: Ledger, orgSeq: number): Promise<OpenTokens> {
  const r = await rowOf(ledger, orgSeq);
  if (!r?.access_token || !r.refresh_token) {
    throw new LedgerError('conflict', 'This organization is not connected to HMRC: connect it first (the Tax screen, or ledgerdesk hmrc connect).', { reason: 'not_connected' });
  }
  return {
    id: r.id,
    vrn: r.vrn,
    accessToken: openSecretOrAsk(ledger, 'hmrcAccess', r.id, r.access_token, "HMRC's access token", RECONNECT),
    refreshToken: openSecretOrAsk(ledger, 'hmrcRefresh', r.id, r.refresh_token, "HMRC's refresh token", RECONNECT),
    accessExpiresAt: r.access_expires_at!,
    refreshExpiresAt: r.refresh_expires_at!,
  };
}

/** Refreshed tokens kept, unless another process refreshed them first (then its tokens stand): whether these were. */
export async function storeRefreshedTokens(
  ledger: Ledger,
  orgSeq: number,
  before: OpenTokens,
  tokens: { accessToken: string; refreshToken: string; accessExpiresAt: string },
): Promise<boolean> {
  return ledger.write(async () => {
    const r = await ledger
      .stmt('UPDATE hmrc_connections SET access_token = ?, access_expires_at = ?, refresh_token = ? WHERE org_seq = ? AND access_expires_at = ?')
      .run(
        sealSecret(ledger, 'hmrcAccess', before.id, tokens.accessToken),
        tokens.accessExpiresAt,
        sealSecret(ledger, 'hmrcRefresh', before.id, tokens.refreshToken),
        orgSeq,
        before.accessExpiresAt,
      );
    return r.changes > 0;
  });
}

/** The organizations connected to HMRC (for the refresh pass). */
export const connectedOrganizations = (ledger: Ledger): Promise<number[]> =>
  ledger.forOrg('all', async () => (await ledger.stmt('SELECT seq FROM organizations ORDER BY seq').pluck().all()) as number[]);

/** When the person last passed their second factor (the last accepted TOTP step), or null. */
export async function secondFactorUsedAt(ledger: Ledger, userSeq: number): Promise<string | null> {
  const step = (await ledger.stmt('SELECT totp_step FROM users WHERE seq = ? AND totp_secret IS NOT NULL').pluck().get(userSeq)) as number | null | undefined;
  return step ? new Date(step * 30_000).toISOString() : null;
}
