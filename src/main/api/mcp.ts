// /api/mcp: the tool bridge (MCP Streamable HTTP). One tool per registry
// operation; the same token, guards, body limit, validation and error codes as
// /api/v1.
//
// Stateless: every POST carries the bearer token and gets a fresh McpServer and
// transport bound to that token, so there is no session id to replay and GET
// (no server-initiated stream) and DELETE (no session) answer 405.
//
// Tools are served through McpServer's underlying Server handlers rather than
// registerTool: registerTool validates arguments itself and reports failures as
// plain text, while agents must get the same error.code and details as REST.
import { getRequestListener } from '@hono/node-server';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolResult,
  type Tool,
  type ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import { type ErrorRequestHandler, type RequestHandler, Router } from 'express';
import * as z from 'zod';
import type { Ledger } from '../ledger/core/sqlite/open';
import { invalid, LedgerError } from '../ledger/core/errors';
import type { AuthenticatedToken } from '../ledger/access/tokens';
import { bindToken, challenge, mayCall, requireAccess, tokenOf } from './auth';
import { logInternal, toLedgerError, type Log } from './errors';
import { jsonBody, methodNotAllowed, queryOf, requireJson, sendJson } from './http';
import { resourceMetadataUrl } from './mcp-auth';
import { inlineJsonSchema } from './json-schema';
import { instructionsFor } from './mcp-words';
import { Answer, API_VERSION, inputOf, operations, type Operation } from './registry';
import { parsePart } from './validation';

export const MCP_PATH = '/api/mcp';

// The SDK's Node transport answers with web Response objects that
// @hono/node-server writes to the socket. A native Response is read back
// through a stream (a fifth of a tool call's time); Hono's own lightweight
// Response, which every Hono app on Node installs as the global, is written
// directly. The SDK leaves the global alone only for frameworks whose classes
// extend the native Response (Next.js); nothing in this process does, and
// Hono's class is a drop-in (instanceof Response still holds).
getRequestListener(() => new Response(null), { overrideGlobalObjects: true });

/** Only used for elicitation, which the bridge never does; one instance, not one per request. */
const validator = new AjvJsonSchemaValidator();

const McpQuery = z.strictObject({
  tools: z.enum(['default', 'all']).optional().describe('all: every operation; default (or absent): the curated 12'),
});

interface ToolEntry {
  op: Operation;
  input: z.ZodType<Record<string, unknown>>;
  tool: Tool;
}

/**
 * Only what differs from the protocol's defaults. Proposals only add a pending
 * draft, and the same change proposed again answers the pending one
 * (idempotent); create_note adds a note each time.
 */
function annotationsOf(op: Operation): ToolAnnotations {
  if (op.method === 'GET') return { readOnlyHint: true, openWorldHint: false };
  return { destructiveHint: false, ...(op.alsoAnswers ? { idempotentHint: true } : {}), openWorldHint: false };
}

/** Built once: the JSON Schemas of every tool, derived from the registry. */
const catalog: ToolEntry[] = operations.map((op) => ({
  op,
  input: inputOf(op),
  tool: {
    name: op.operationId,
    title: op.title,
    description: op.description,
    inputSchema: inlineJsonSchema(inputOf(op), 'input') as Tool['inputSchema'],
    outputSchema: inlineJsonSchema(op.output, 'output') as Tool['outputSchema'],
    annotations: annotationsOf(op),
  },
}));

/**
 * The tools a token sees: the curated default set (or all 17), without the
 * ones its scopes cannot call, so a read-only agent is never offered a write.
 * Calling a hidden write tool still answers insufficient_scope, like REST.
 */
export function toolsFor(token: Pick<AuthenticatedToken, 'scopes' | 'role'>, set: 'default' | 'all'): ToolEntry[] {
  return catalog.filter((e) => (set === 'all' || e.op.exposeByDefault) && mayCall(token, e.op));
}

async function callTool(ledger: Ledger, token: AuthenticatedToken, entry: ToolEntry, args: unknown, log: Log): Promise<CallToolResult> {
  try {
    requireAccess(token, entry.op);
    const input = parsePart(entry.input, args ?? {}, 'arguments');
    const result = await entry.op.run({ ledger, token, channel: 'mcp' }, input);
    const body = (result instanceof Answer ? result.body : result) as Record<string, unknown>;
    const note = result instanceof Answer ? [{ type: 'text' as const, text: result.note }] : [];
    return { content: [{ type: 'text', text: JSON.stringify(body) }, ...note], structuredContent: body };
  } catch (error) {
    const failure = toLedgerError(error);
    if (failure.code === 'internal_error') logInternal(log, `tool ${entry.op.operationId}`, error);
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(failure.toBody()) }] };
  }
}

/** Callable tools by name per set (calls are checked against scopes, not hidden by them). */
const callable = {
  default: new Map(catalog.filter((e) => e.op.exposeByDefault).map((e) => [e.op.operationId, e])),
  all: new Map(catalog.map((e) => [e.op.operationId, e])),
};

function mcpServerFor(ledger: Ledger, token: AuthenticatedToken, set: 'default' | 'all', log: Log): McpServer {
  const entries = toolsFor(token, set);
  const byName = callable[set];
  const mcp = new McpServer({ name: 'ledgerdesk', title: 'Ledgerdesk', version: API_VERSION }, { instructions: instructionsFor(token.scopes), jsonSchemaValidator: validator });
  mcp.server.registerCapabilities({ tools: { listChanged: false } });
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: entries.map((e) => e.tool) }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const entry = byName.get(request.params.name);
    if (!entry) {
      const hint = set === 'all' ? '' : ' (connect to /api/mcp?tools=all for every operation)';
      // A plain error with a code: McpError would prefix its own "MCP error -32602:", which the client adds again.
      throw Object.assign(new Error(`Unknown tool "${request.params.name}"${hint}.`), { code: ErrorCode.InvalidParams });
    }
    return callTool(ledger, token, entry, request.params.arguments, log);
  });
  return mcp;
}

const authenticate =
  (ledger: Ledger): RequestHandler =>
  async (req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    const token = await bindToken(ledger, req);
    // Everything after runs for the token's organization (row-level security on a server's database).
    await ledger.forOrg(token.orgSeq, () => next());
  };

/** JSON-RPC's codes for what goes wrong before a message reaches the server (-32001: implementation-defined, not allowed). */
function rpcCodeOf(error: LedgerError): number {
  if (error.code === 'invalid_json') return ErrorCode.ParseError;
  if (error.status === 401 || error.status === 403) return -32001;
  return error.status >= 500 ? ErrorCode.InternalError : ErrorCode.InvalidRequest;
}

/**
 * Everything /api/mcp refuses at the HTTP level is a JSON-RPC error, like the
 * SDK's own (one format for a client to read); the stable error.code and
 * details ride in error.data. A 401 names the resource metadata (mcp-auth.ts).
 */
export const mcpErrors =
  (log: Log): ErrorRequestHandler =>
  (error, req, res, _next) => {
    const failure = toLedgerError(error);
    if (failure.code === 'internal_error') logInternal(log, '/api/mcp', error);
    if (res.headersSent) return void res.end();
    const www = challenge(failure);
    if (www) res.setHeader('WWW-Authenticate', failure.code === 'unauthorized' ? `${www}, resource_metadata="${resourceMetadataUrl(req)}"` : www);
    if (failure.code === 'method_not_allowed') res.setHeader('Allow', 'POST');
    sendJson(res, failure.status, {
      jsonrpc: '2.0',
      id: null,
      error: { code: rpcCodeOf(failure), message: failure.message, data: { code: failure.code, details: failure.details } },
    });
  };

const protocolVersion: RequestHandler = (req, _res, next) => {
  const version = req.headers['mcp-protocol-version'];
  if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(String(version))) {
    return next(
      new LedgerError('unsupported_protocol_version', `MCP-Protocol-Version ${String(version)} is not supported.`, {
        header: 'MCP-Protocol-Version',
        supported: SUPPORTED_PROTOCOL_VERSIONS,
      }),
    );
  }
  next();
};

/** JSON-RPC batches came with protocol 2025-03-26 and went with 2025-06-18; a request without the header speaks 2025-03-26 (the spec's fallback). */
const BATCH_VERSIONS = ['2025-03-26'];
const noBatchAfter: RequestHandler = (req, _res, next) => {
  const version = String(req.headers['mcp-protocol-version'] ?? '2025-03-26');
  if (Array.isArray(req.body) && !BATCH_VERSIONS.includes(version)) {
    return next(invalid([{ field: 'body', message: `is a JSON-RPC batch, which MCP ${version} does not have: send one message per request` }]));
  }
  next();
};

export function mcpRouter(ledger: Ledger, log: Log): Router {
  const router = Router({ strict: false, caseSensitive: true });
  router.use('/', authenticate(ledger), protocolVersion);
  router.post('/', requireJson, jsonBody, noBatchAfter, async (req, res) => {
    const { tools } = parsePart(McpQuery, queryOf(req), 'query');
    const mcp = mcpServerFor(ledger, tokenOf(req)!, tools ?? 'default', log);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void mcp.close());
    await mcp.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  router.all('/', methodNotAllowed(['POST']));
  return router;
}
