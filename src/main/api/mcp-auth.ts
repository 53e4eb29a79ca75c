// How /api/mcp says "your token is wrong" so that MCP clients believe it.
//
// MCP clients (the SDK's, so mcp-remote and the Inspector) answer any 401 by
// starting OAuth: Protected Resource Metadata (RFC 9728), authorization server
// metadata (RFC 8414), then dynamic client registration (RFC 7591) at
// /register. Ledgerdesk has no authorization server: its tokens are made by the
// person (Tokens screen, `ledgerdesk token create`). So the 401 names its
// resource metadata, which lists no authorization server and says how to get a
// token; the discovery documents of an authorization server stay 404; and the
// registration the SDK then attempts is refused with an RFC 7591 error whose
// description the client shows: the token is missing, unknown or revoked, and
// where a good one comes from.
import type { IncomingMessage } from 'node:http';
import { type RequestHandler, Router } from 'express';
import { SCOPES } from '../ledger/access/tokens';
import { sendJson } from './http';

export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';
const MCP_PATH = '/api/mcp';

export const STATIC_TOKENS =
  'Ledgerdesk does not use OAuth: its MCP endpoint takes a Ledgerdesk token, sent as "Authorization: Bearer ldk_live_...". ' +
  "The token sent was missing, unknown or revoked: create one in Ledgerdesk (Tokens screen, or `ledgerdesk token create`) and put it in the client's headers.";

const origins = new WeakMap<IncomingMessage, string>();

/** Where agents reach this server, noted per request (https behind TLS or a proxy's public URL; plain Host by default). */
export const noteAgentOrigin =
  (originOf: (req: IncomingMessage) => string): RequestHandler =>
  (req, _res, next) => {
    origins.set(req, originOf(req));
    next();
  };

const originOf = (req: IncomingMessage): string => origins.get(req) ?? `http://${req.headers.host}`;

/** The resource_metadata parameter of a 401 from /api/mcp (RFC 9728 section 5.1). */
export const resourceMetadataUrl = (req: IncomingMessage): string => `${originOf(req)}${RESOURCE_METADATA_PATH}${MCP_PATH}`;

export function mcpAuthRouter(): Router {
  const router = Router({ strict: false, caseSensitive: true });
  const metadata: RequestHandler = (req, res) => {
    sendJson(res, 200, {
      resource: `${originOf(req)}${MCP_PATH}`,
      resource_name: 'Ledgerdesk tool bridge',
      // No authorization_servers: no OAuth server issues these tokens.
      bearer_methods_supported: ['header'],
      scopes_supported: SCOPES,
      resource_documentation: `${originOf(req)}/api/v1/openapi.json`,
      ledgerdesk_token_help: STATIC_TOKENS,
    });
  };
  router.get(`${RESOURCE_METADATA_PATH}${MCP_PATH}`, metadata);
  router.get(RESOURCE_METADATA_PATH, metadata);
  router.post('/register', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    sendJson(res, 400, { error: 'invalid_client_metadata', error_description: STATIC_TOKENS });
  });
  return router;
}
