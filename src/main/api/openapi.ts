// OpenAPI 3.1, generated from the registry's zod schemas (never written by hand).
import * as z from 'zod';
import { ERROR_CODES, type ErrorCode } from '../ledger/core/errors';
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER } from './idempotency';
import { SCOPES } from '../ledger/access/tokens';
import { errorCodesOf } from './operation';
import { API_VERSION, operations, objectShape, type Operation } from './registry';
import { toJsonSchema, type Json } from './json-schema';
import { ErrorBody } from './schemas';

/** What each error status means in general; the codes an operation can answer are listed with it. */
const STATUS_TEXT: Record<number, string> = {
  400: 'The request is not valid',
  401: 'No valid token; carries WWW-Authenticate',
  403: 'Refused',
  404: 'Not found in the token organization',
  409: 'Conflicts with the current state',
  413: 'The body is over 1 MiB',
  415: 'The body is not application/json',
  422: 'Refused as it stands (the Idempotency-Key belongs to another request; HMRC refused the call)',
  500: 'An unexpected error',
  502: 'An outside service (HMRC) could not be reached or asked to wait',
  503: 'The server is stopping, or does not write (a read replica, an outdated build); retry or write elsewhere',
};

/** One tag per resource, in the order the spec presents them. */
const TAGS: Record<string, string> = {
  ontology: 'The public chart-of-accounts ontology (no token)',
  transactions: 'Ledger transactions, read-only',
  dashboard: 'The dashboard summary',
  receipts: 'Receipt metadata and search (file bytes are never returned)',
  categories: "The organization's chart of accounts",
  connectors: 'Money accounts and how they are fed',
  proposals: 'Drafts for a human to approve in Approvals: categorizations, journal entries, receipt links',
  notes: 'Notes on transactions',
  invoices: 'Invoices, credit notes and bills, read-only (beyond the spec, issue 29; not among the default MCP tools)',
};
export const tagOf = (op: Operation): string => op.path.split('/')[1].replace(/\.jsonld$/, '');

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
      // A local app: the contact is the app itself (its README); the code is not licensed for reuse (package.json UNLICENSED).
      contact: { name: 'Ledgerdesk, running on this computer' },
      license: { name: 'Proprietary: all rights reserved' },
      description: [
        'Local agent API of Ledgerdesk. Reads ledger data; every agent write is a pending proposal that a human approves or rejects in the Approvals screen (no token API reviews).',
        'Served on 127.0.0.1, unless started for others over TLS or behind an HTTPS reverse proxy (`serve --public-url`); requests whose Host or Origin is not this server get 403.',
        'Scopes are independent: `read` for GET operations, `propose-write` for proposals and notes; `propose-write` does not imply `read`.',
        'Error codes (error.code): ' +
          Object.entries(ERROR_CODES)
            .map(([code, e]) => `\`${code}\` (${e.status}) ${e.description}`)
            .join('; '),
      ].join('\n\n'),
    },
    servers: [{ url: '/api/v1' }],
    security: [{ bearer: [] }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
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
    ...(op.body ? [IDEMPOTENCY_PARAMETER] : []),
  ];
  const headers = {
    ...(op.deprecated ? { Deprecation: { schema: { type: 'string' }, description: 'RFC 9745 deprecation date' } } : {}),
    ...(op.body
      ? {
          [REPLAYED_HEADER]: {
            schema: { type: 'string', enum: ['true'] },
            description: 'Present when this is the kept answer to an earlier request with the same Idempotency-Key',
          },
        }
      : {}),
  };
  const success = (description: string) => ({
    description,
    ...(Object.keys(headers).length ? { headers } : {}),
    content: { [op.contentType ?? 'application/json']: { schema: schemaOf(op.output, 'output') } },
  });
  const responses: Json = {
    ...(op.alsoAnswers ? { [op.alsoAnswers.status]: success(op.alsoAnswers.description) } : {}),
    [op.successStatus]: success(op.successStatus === 201 ? 'Created' : 'OK'),
  };
  // Each error status with the codes this operation can answer under it (exactly: checked against real answers in the tests).
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(op)) byStatus.set(ERROR_CODES[code].status, [...(byStatus.get(ERROR_CODES[code].status) ?? []), code]);
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    responses[status] = {
      description: `${STATUS_TEXT[status]}: ${codes.map((c) => `\`${c}\` (${ERROR_CODES[c].description.replace(/\.$/, '')})`).join('; ')}.`,
      ...(status === 401 ? { headers: { 'WWW-Authenticate': { schema: { type: 'string' }, description: 'Bearer challenge (RFC 6750)' } } } : {}),
      content: {
        'application/json': {
          schema: { allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { error: { properties: { code: { enum: codes } } } } }] },
        },
      },
    };
  }
  return {
    operationId: op.operationId,
    tags: [tagOf(op)],
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

const IDEMPOTENCY_PARAMETER: Json = {
  name: IDEMPOTENCY_HEADER,
  in: 'header',
  required: false,
  description:
    'Makes the write safe to retry: the first answer to a key is kept 24 hours for the token and replayed (same status and body, header Idempotent-Replayed: true) to a request with the same key and body. The same key with another body answers 422 idempotency_key_reused; a key whose request is still being processed answers 409 idempotency_key_in_use. Answers to malformed requests (400) and 500s are not kept.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$', example: '6f1c2a4e-1d2b-4c1e-9a7e-3b1f0c9d8e21' },
};

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
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? v.replace('#/$defs/', '#/components/schemas/') : rewriteRefs(v)]));
  }
  return value;
}
