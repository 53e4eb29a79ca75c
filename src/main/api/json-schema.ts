// zod -> JSON Schema (draft 2020-12), the one conversion behind OpenAPI and MCP.
import { z } from 'zod';

export type Json = Record<string, unknown>;

/** Named sub-schemas (meta id) come back under $defs, referenced as #/$defs/<id>. */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any', reused: 'inline' }) as Json;
  delete json.$schema;
  return json;
}

/** A self-contained schema with every #/$defs reference replaced by its definition (MCP clients vary in $ref support). */
export function inlineJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $defs, ...root } = toJsonSchema(schema, io) as Json & { $defs?: Record<string, unknown> };
  const resolve = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(resolve);
    if (!value || typeof value !== 'object') return value;
    const { $ref, ...rest } = value as Json;
    const target = typeof $ref === 'string' && $ref.startsWith('#/$defs/') ? $defs?.[$ref.slice(8)] : undefined;
    const resolved = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, resolve(v)]));
    return target ? { ...(resolve(target) as Json), ...resolved } : { ...($ref === undefined ? {} : { $ref }), ...resolved };
  };
  return resolve(root) as Json;
}
