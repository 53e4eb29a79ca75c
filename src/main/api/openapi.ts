// OpenAPI 3.1, generated from the registry's zod schemas (never written by hand).
import { z } from 'zod';
import { ERROR_CODES } from '../ledger/errors';
import { SCOPES } from '../ledger/tokens';
import { API_VERSION, operations, objectShape, type Operation } from './registry';
import { toJsonSchema, type Json } from './json-schema';
import { ErrorBody } from './schemas';

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request: validation_failed (details lists each field), invalid_json',
  401: 'Missing, malformed, unknown or revoked token (unauthorized); carries WWW-Authenticate',
  403: 'insufficient_scope, or forbidden_host / forbidden_origin',
  404: 'not_found: no such resource in the token organization',
  405: 'method_not_allowed; see the Allow header',
  409: 'conflict',
  413: 'payload_too_large: the body is over 1 MiB',
  415: 'unsupported_media_type: send application/json',
  500: 'internal_error',
};

let cached: Json | undefined;

export function openApiDocument(): Json {
  cached ??= build();
  return cached;
}

function build(): Json {
  const components: Record<string, unknown> = {};
  /** Converts a schema, hoisting named sub-schemas (meta id) into components. */
  const schemaOf = (schema: z.ZodType, io: 'input' | 'output'): Json => {
    const json = toJsonSchema(schema, io);
    const defs = (json.$defs ?? {}) as Record<string, unknown>;
    delete json.$defs;
    for (const [name, def] of Object.entries(defs)) components[name] ??= rewriteRefs(def);
    const named = z.globalRegistry.get(schema)?.id;
    if (named) {
      components[named] ??= rewriteRefs(json);
      return { $ref: `#/components/schemas/${named}` };
    }
    return rewriteRefs(json) as Json;
  };

  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    (paths[op.path] ??= {})[op.method.toLowerCase()] = operationObject(op, schemaOf);
  }
  schemaOf(ErrorBody, 'output');
  return {
    openapi: '3.1.0',
    info: {
      title: 'Ledgerdesk Ledger Agent API',
      version: API_VERSION,
      description: [
        'Local agent API of Ledgerdesk. Reads ledger data; every agent write is a pending proposal that a human approves or rejects in the Approvals screen (no token API reviews).',
        'Served on 127.0.0.1 only; requests whose Host or Origin is not this server get 403.',
        "Scopes are independent: `read` for GET operations, `propose-write` for proposals and notes; `propose-write` does not imply `read`.",
        'Error codes (error.code): ' + Object.entries(ERROR_CODES).map(([code, e]) => `\`${code}\` (${e.status}) ${e.description}`).join('; '),
      ].join('\n\n'),
    },
    servers: [{ url: '/api/v1' }],
    security: [{ bearer: [] }],
    tags: [{ name: 'ledger' }],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'ldk_live_<secret>',
          description: `Organization-scoped token with scopes ${SCOPES.join(', ')}, created in Tokens or with \`ledgerdesk token create\`.`,
        },
      },
    },
  };
}

function operationObject(op: Operation, schemaOf: (s: z.ZodType, io: 'input' | 'output') => Json): Json {
  const parameters = [
    ...(op.params ? paramsOf(op.params, 'path', schemaOf) : []),
    ...(op.query ? paramsOf(op.query, 'query', schemaOf) : []),
  ];
  const errorRef = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
  const statuses = new Set<number>([...(op.params || op.query || op.body ? [400] : []), ...(op.scope ? [401] : []), ...op.errors, 405]);
  if (op.body) [413, 415].forEach((s) => statuses.add(s));
  const responses: Json = {
    [op.successStatus]: {
      description: op.successStatus === 201 ? 'Created' : 'OK',
      ...(op.deprecated ? { headers: { Deprecation: { schema: { type: 'string' }, description: 'RFC 9745 deprecation date' } } } : {}),
      content: { [op.contentType ?? 'application/json']: { schema: schemaOf(op.output, 'output') } },
    },
  };
  for (const s of [...statuses].sort()) responses[s] = { description: STATUS_TEXT[s], content: errorRef };
  return {
    operationId: op.operationId,
    summary: op.title,
    description: op.description,
    ...(op.deprecated ? { deprecated: true } : {}),
    security: op.scope ? [{ bearer: [] }] : [],
    'x-scope': op.scope,
    'x-expose-by-default': op.exposeByDefault,
    ...(parameters.length ? { parameters } : {}),
    ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(op.body, 'input') } } } } : {}),
    responses,
  };
}

function paramsOf(schema: z.ZodType, where: 'path' | 'query', schemaOf: (s: z.ZodType, io: 'input' | 'output') => Json): Json[] {
  return Object.entries(objectShape(schema)).map(([name, field]) => {
    const json = schemaOf(field as z.ZodType, 'input');
    const description = json.description;
    delete json.description;
    const optional = (field as z.ZodType).safeParse(undefined).success;
    return { name, in: where, required: where === 'path' || !optional, ...(description ? { description } : {}), schema: json };
  });
}

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? v.replace('#/$defs/', '#/components/schemas/') : rewriteRefs(v)]),
    );
  }
  return value;
}
