// What an operation is: the shape every registry entry fills in, and the
// helpers that derive one input schema from it (MCP tools, CLI commands).
import type * as z from 'zod';
import type { AuthenticatedToken, ErrorCode, Ledger, Scope } from '../ledger';
import { ERROR_CODES } from '../ledger/core/errors';
import { NoInput } from './fields';

/** The interface description's version (spec part 9); the path carries v1. */
export const API_VERSION = '1.0.0';

export type { AgentActor } from '../ledger/access/audit';

export interface OperationContext {
  ledger: Ledger;
  /** Null only for public operations. */
  token: AuthenticatedToken | null;
  channel: 'rest' | 'mcp';
}

type AnyObject = z.ZodObject<z.ZodRawShape>;

export interface Operation {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT';
  /** OpenAPI-style path under /api/v1, e.g. /transactions/{id} */
  path: string;
  scope: Scope | null;
  /** A client's token may call it (issue 45: a token never exceeds its maker's role; a client reads the dashboard, categories and invoices). */
  forClients?: boolean;
  exposeByDefault: boolean;
  deprecated?: boolean;
  title: string;
  /** Written for agents and humans alike: what it does, when to prefer another operation. */
  description: string;
  params?: AnyObject;
  query?: AnyObject;
  body?: z.ZodType<Record<string, unknown>>;
  /** The whole response body (envelope included). */
  output: z.ZodType;
  successStatus: 200 | 201;
  contentType?: string;
  /**
   * Error codes this operation raises itself. Every operation can also answer
   * validation_failed, forbidden_host, forbidden_origin and internal_error;
   * token operations unauthorized and insufficient_scope; operations with a body
   * invalid_json, payload_too_large, unsupported_media_type and the
   * Idempotency-Key codes (errorCodesOf).
   */
  errors: ErrorCode[];
  /** A second success status the operation can answer with an Answer (OpenAPI documents it). */
  alsoAnswers?: { status: 200; description: string };
  // The input is what the operation's own schema parsed: each entry of the registry types it itself.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- one list holds operations of every input type
  run(ctx: OperationContext, input: any): unknown | Promise<unknown>;
}

/** A result answered with another status than the operation's successStatus; `note` tells MCP clients why. */
export class Answer {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly note: string,
  ) {}
}

/** Every error code an operation can answer (see Operation.errors), in the order of ERROR_CODES. */
export function errorCodesOf(op: Operation): ErrorCode[] {
  const codes = new Set<ErrorCode>(['validation_failed', 'forbidden_host', 'forbidden_origin', 'internal_error', 'unavailable', ...op.errors]);
  if (op.scope) ['unauthorized', 'insufficient_scope'].forEach((c) => codes.add(c as ErrorCode));
  // A client's token (issue 45) reads what a client reads: the rest (and every write: issue 50) answers forbidden with the reason.
  if (op.scope && !op.forClients) codes.add('forbidden');
  if (op.body) {
    ['invalid_json', 'payload_too_large', 'unsupported_media_type', 'idempotency_key_in_use', 'idempotency_key_reused'].forEach((c) => codes.add(c as ErrorCode));
    // A write on a read replica, or from a build older than the database's schema (issue 51).
    ['read_only', 'outdated_build'].forEach((c) => codes.add(c as ErrorCode));
  }
  return (Object.keys(ERROR_CODES) as ErrorCode[]).filter((c) => codes.has(c));
}

/** The object shape behind a (possibly refined) object schema. */
export function objectShape(schema: z.ZodType): z.ZodRawShape {
  const def = (schema as unknown as { def: { type: string; shape?: z.ZodRawShape; in?: z.ZodType } }).def;
  if (def.shape) return def.shape;
  throw new Error(`not an object schema: ${def.type}`);
}

/**
 * The operation's input as one object schema, as MCP tools and CLI commands take it:
 * no operation has more than one of path, query and body, so that part's schema
 * (refinements included) is used as it is.
 */
export function inputOf(op: Operation): z.ZodType<Record<string, unknown>> {
  const parts = [op.params, op.query, op.body].filter((p) => p !== undefined);
  if (parts.length > 1) throw new Error(`${op.operationId}: more than one input part`);
  return parts[0] ?? NoInput;
}
