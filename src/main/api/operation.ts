// What an operation is: the shape every registry entry fills in, and the
// helpers that derive one input schema from it (MCP tools, CLI commands).
import type { z } from 'zod';
import type { Actor, AuthenticatedToken, Ledger, Scope } from '../ledger';
import * as S from './schemas';

/** The interface description's version (spec part 9); the path carries v1. */
export const API_VERSION = '1.0.0';

export type AgentActor = Extract<Actor, { type: 'token' }>;

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
  /** Error statuses besides 401 (token ops), 400 (validation) and 500. */
  errors: number[];
  run(ctx: OperationContext, input: any): unknown;
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
  return parts[0] ?? S.NoInput;
}
