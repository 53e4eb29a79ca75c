// The one typed error of the ledger and the API. Every failure a client can see
// is one of these codes; the HTTP status is part of the code's identity so REST,
// MCP, the desk and the CLI all report the same thing.
export const ERROR_CODES = {
  validation_failed: { status: 400, description: 'A parameter or body field is missing, unknown or out of range; details lists each field.' },
  invalid_json: { status: 400, description: 'The request body is not valid JSON.' },
  unsupported_protocol_version: { status: 400, description: 'The MCP-Protocol-Version header names a version this tool bridge does not speak.' },
  unauthorized: { status: 401, description: 'The bearer token is missing, malformed, unknown or revoked.' },
  insufficient_scope: { status: 403, description: 'The token lacks the scope this operation needs.' },
  forbidden_host: { status: 403, description: 'The Host header does not name this server (DNS-rebinding guard).' },
  forbidden_origin: { status: 403, description: 'The request came from another web origin.' },
  forbidden: { status: 403, description: "The signed-in person's role in this organization does not allow this operation (issue 45)." },
  not_found: { status: 404, description: 'The path, or the resource named by an id, does not exist in this organization.' },
  method_not_allowed: { status: 405, description: 'The path exists but not with this method; see the Allow header.' },
  already_reviewed: { status: 409, description: 'The proposal was already approved or rejected.' },
  conflict: { status: 409, description: 'The change conflicts with the current state of the ledger.' },
  period_locked: {
    status: 409,
    description:
      "The date is on or before the closing date, or a filed tax return took the row's tax: nothing there is created, changed or deleted; details name the date (and the return).",
  },
  tax_period_not_ended: {
    status: 409,
    description: "The tax return's period has not ended (HMRC's TAX_PERIOD_NOT_ENDED): it can be filed from the day after its last; details name `to` and that day.",
  },
  hmrc_refused: {
    status: 422,
    description:
      "HMRC refused the call (issue 54): details name HMRC's code (DUPLICATE_SUBMISSION, TAX_PERIOD_NOT_ENDED, INVALID_PERIODKEY, VRN_INVALID...), its status and its words; nothing was filed.",
  },
  hmrc_unavailable: {
    status: 502,
    description: 'HMRC could not be reached, did not answer in time, answered 5xx or asked to wait (429: details.retryAfterSeconds); nothing was filed: try again.',
  },
  proposal_rejected: { status: 409, description: 'A person rejected this same change before; details name that proposal and the comment.' },
  idempotency_key_in_use: { status: 409, description: 'A request with this Idempotency-Key is still being processed; retry after it finishes.' },
  payload_too_large: { status: 413, description: 'The request body is over 1 MiB (a desk upload: over its limit, details.limit).' },
  staging_quota_exceeded: {
    status: 413,
    description: "A desk upload would take a person's or an organization's staged files past its quota; details name the quota, its limit and what is staged.",
  },
  unsupported_media_type: { status: 415, description: 'A request body must be sent as application/json.' },
  idempotency_key_reused: { status: 422, description: 'This Idempotency-Key was used with another request body (or operation) in the last 24 hours.' },
  rate_limited: { status: 429, description: 'Too many failed sign-ins for this account: refused until the time details give.' },
  mail_failed: {
    status: 502,
    description:
      "Desk only (issue 53): the organization's mail server did not accept the message (a refused sign-in or recipient, a timeout, a certificate that does not verify, a dropped connection); details.reason says which. Nothing was recorded as sent.",
  },
  provider_error: {
    status: 502,
    description:
      "A connector's provider (a bank feed, a payment processor) refused or failed the call; details.reason says how (unauthorized, rate_limited, unavailable, malformed, refused). Nothing was written.",
  },
  internal_error: { status: 500, description: 'An unexpected error; the server log has the cause, under the request id the message and details name.' },
  unavailable: { status: 503, description: 'The server is stopping (or its database is not ready): retry, and another process or the restarted one answers.' },
  read_only: {
    status: 503,
    description: 'This server serves reads only (a read replica of the database, or serve --read-only): changes are made through a server on the primary database.',
  },
  outdated_build: {
    status: 503,
    description: 'A newer Ledgerdesk build migrated the database after this process started: it no longer writes into a schema it does not know. Restart it with the newer build.',
  },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface FieldIssue {
  field: string;
  message: string;
}

export class LedgerError extends Error {
  readonly code: ErrorCode;
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, details: unknown = null) {
    super(message);
    this.name = 'LedgerError';
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }

  toBody(): { error: { code: ErrorCode; message: string; details: unknown } } {
    return { error: { code: this.code, message: this.message, details: this.details } };
  }
}

export const notFound = (resource: string, id: string): LedgerError => new LedgerError('not_found', `No ${resource} with id ${id} in this organization.`, { resource, id });

export const invalid = (issues: FieldIssue[], message?: string): LedgerError =>
  new LedgerError('validation_failed', message ?? `Invalid request: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}`, issues);

/**
 * A write made in passing by a read (a token's last use, a session's last sight): left unwritten by a process a newer
 * build has outdated (issue 51), so that its reads go on answering until it is restarted; any other failure is thrown.
 */
export async function inPassing(write: Promise<unknown>): Promise<void> {
  try {
    await write;
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'outdated_build') throw error;
  }
}
