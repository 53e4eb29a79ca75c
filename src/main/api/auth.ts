// Bearer authentication shared by /api/v1 and /api/mcp: token -> organization,
// token id and scopes. Scopes are independent: `propose-write` does NOT imply
// `read` (a receipt scanner may only propose); give an agent both to let it work.
import type { IncomingMessage } from 'node:http';
import { LedgerError } from '../ledger/core/errors';
import { authenticate, clientReadOnly, type AuthenticatedToken, type Scope } from '../ledger/access/tokens';
import type { Ledger } from '../ledger/core/sqlite/open';

export const REALM = 'ledgerdesk';
const TOKEN_IN_URL = /[?&](access_token|token|api_key|apikey|key|bearer)=/i;

/** Throws unauthorized (401) for a missing, malformed, unknown or revoked token, or one sent in the URL. */
export async function authenticateRequest(ledger: Ledger, req: IncomingMessage): Promise<AuthenticatedToken> {
  if (req.url && TOKEN_IN_URL.test(req.url)) {
    throw new LedgerError('unauthorized', 'Tokens are never accepted in a URL; send "Authorization: Bearer <token>".', { reason: 'token_in_url' });
  }
  const header = req.headers.authorization;
  if (!header) {
    throw new LedgerError('unauthorized', 'Missing bearer token: send "Authorization: Bearer ldk_live_...".', { reason: 'missing' });
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new LedgerError('unauthorized', 'The Authorization header must be "Bearer <token>".', { reason: 'malformed' });
  return authenticate(ledger, match[1]);
}

const bound = new WeakMap<IncomingMessage, AuthenticatedToken>();

/** Authenticates once per request and keeps the token for the handlers after it. */
export async function bindToken(ledger: Ledger, req: IncomingMessage): Promise<AuthenticatedToken> {
  const token = await authenticateRequest(ledger, req);
  bound.set(req, token);
  return token;
}

/** The token bindToken authenticated for this request; null for public operations. */
export const tokenOf = (req: IncomingMessage): AuthenticatedToken | null => bound.get(req) ?? null;

export function requireScope(token: AuthenticatedToken, scope: Scope): void {
  if (!token.scopes.includes(scope)) {
    throw new LedgerError('insufficient_scope', `This token lacks the "${scope}" scope.`, { required: scope, granted: token.scopes });
  }
}

/** Whether a token may call an operation: its scope, and (issue 45) a client's token only what a client reads. */
export const mayCall = (token: Pick<AuthenticatedToken, 'scopes' | 'role'>, op: { scope: Scope | null; forClients?: boolean }): boolean =>
  (op.scope === null || token.scopes.includes(op.scope)) && (token.role !== 'client' || op.forClients === true);

/**
 * Throws forbidden for a client's token calling what a client does not read or a write (whatever scopes it was made
 * with: the reason, not a missing scope), else insufficient_scope.
 */
export function requireAccess(token: AuthenticatedToken, op: { operationId: string; scope: Scope | null; forClients?: boolean }): void {
  if (token.role === 'client' && op.scope !== null && !op.forClients) {
    if (op.scope === 'propose-write') throw clientReadOnly(token.granted, { operation: op.operationId });
    throw new LedgerError('forbidden', `This token's maker is a client of the organization: it reads the dashboard, the categories and the invoices, not ${op.operationId}.`, {
      operation: op.operationId,
      role: 'client',
    });
  }
  if (op.scope) requireScope(token, op.scope);
}

/** RFC 6750 challenge for 401 and 403 answers. */
export function challenge(error: LedgerError): string | undefined {
  if (error.code === 'unauthorized') {
    if ((error.details as { reason?: string } | null)?.reason === 'no_session') return undefined; // the desk's cookie, not a bearer
    const reason = (error.details as { reason?: string } | null)?.reason;
    return reason === 'missing' ? `Bearer realm="${REALM}"` : `Bearer realm="${REALM}", error="invalid_token", error_description="${error.message.replaceAll('"', "'")}"`;
  }
  if (error.code === 'insufficient_scope') {
    return `Bearer realm="${REALM}", error="insufficient_scope", scope="${(error.details as { required: string }).required}"`;
  }
  return undefined;
}
