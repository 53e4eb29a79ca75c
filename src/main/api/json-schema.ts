// zod -> JSON Schema (draft 2020-12), the one conversion behind OpenAPI and MCP.
import * as z from 'zod';

export type Json = Record<string, unknown>;

/**
 * What a tool's result schema says of a part instead of its whole shape (zod meta): a proposal's payload is the
 * resolved input of its propose tool, described there once; OpenAPI keeps every shape.
 */
export const MCP_BRIEF = 'x-mcp-brief';

/** Named sub-schemas (meta id) come back under $defs, referenced as #/$defs/<id>. */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output', forMcp = false): Json {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    reused: 'inline',
    // A uuid says so by its format; zod's 170-character pattern adds nothing a reader or validator needs (and it repeated 39 times in tools/list).
    override: ({ jsonSchema }) => {
      if (jsonSchema.format === 'uuid') delete jsonSchema.pattern;
      if (!forMcp) delete (jsonSchema as Json)[MCP_BRIEF];
    },
  }) as Json;
  delete json.$schema;
  return json;
}

/** What a tool's schema leaves out: the output's input constraints and required lists, and the control-character patterns (the server still refuses those, in words). */
// `required` too: every field of a result is always there, null when empty (the server instructions say so).
const OUTPUT_ONLY_DROPS = new Set(['pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'maxItems', 'additionalProperties', 'required']);
const CONTROL_PATTERN = /^\^\[\^\\u0000/;

function compact(value: unknown, io: 'input' | 'output', nested = false): unknown {
  if (Array.isArray(value)) return value.map((v) => compact(v, io));
  if (!value || typeof value !== 'object') return value;
  const json = value as Json;
  if (io === 'output' && typeof json[MCP_BRIEF] === 'string') return { type: 'object', description: json[MCP_BRIEF] };
  // { anyOf: [{ type: X, ... }, { type: 'null' }] } is { type: [X, 'null'], ... } for a scalar X.
  const alternatives = (json.anyOf as Json[] | undefined)?.map((a) => compact(a, io, true) as Json);
  const scalar = alternatives?.[0] && ['string', 'number', 'integer', 'boolean'].includes(alternatives[0].type as string);
  if (alternatives?.length === 2 && scalar && alternatives[1].type === 'null' && Object.keys(alternatives[1]).length === 1) {
    const { anyOf: _, ...rest } = json;
    const choices = alternatives[0].enum as unknown[] | undefined;
    return compact({ ...rest, ...alternatives[0], type: [alternatives[0].type, 'null'], ...(choices ? { enum: [...choices, null] } : {}) }, io, nested);
  }
  const kept = Object.entries(json).filter(([k, v]) => {
    if (io === 'output' && OUTPUT_ONLY_DROPS.has(k)) return false;
    // Inside a result, properties already say "object" (the root keeps its type: MCP requires it).
    if (io === 'output' && nested && k === 'type' && v === 'object' && json.properties) return false;
    // A date's format says it all; the pattern and example are for OpenAPI readers.
    if (json.format === 'date' && (k === 'pattern' || k === 'example')) return false;
    return !(k === 'pattern' && typeof v === 'string' && CONTROL_PATTERN.test(v));
  });
  // properties hold field names, not keywords: only their values are compacted.
  return Object.fromEntries(
    kept.map(([k, v]) => [k, k === 'properties' ? Object.fromEntries(Object.entries(v as Json).map(([f, s]) => [f, compact(s, io, true)])) : compact(v, io, true)]),
  );
}

/**
 * A self-contained schema for an MCP tool: every #/$defs reference replaced by
 * its definition (MCP clients vary in $ref support), compacted (compact()) so
 * that the whole tools/list stays small enough for an agent's context.
 */
export function inlineJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $defs, ...root } = compact(toJsonSchema(schema, io, true), io) as Json & { $defs?: Record<string, unknown> };
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
