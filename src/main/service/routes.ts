// The route a request took, as a template (`/api/v1/transactions/{id}`): what the
// access log and the metrics name, so that ids never become labels of their own
// (Prometheus keeps a series per label value). Derived from the same lists the
// routes are (the API registry, the desk operations), never written twice.
import { operations } from '../api/registry';
import { MCP_PATH } from '../api/mcp';
import { RESOURCE_METADATA_PATH } from '../api/mcp-auth';
import { DESK_HTTP_PREFIX, DESK_OPERATIONS } from '../../shared/desk';
import { SIGN_IN_PATH } from '../desk/transport/sessions';

export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';

/** A path no route serves: one label for all of them. */
export const UNMATCHED = '(unmatched)';

const exact = new Set<string>([
  HEALTH_PATH,
  READY_PATH,
  '/',
  '/index.html',
  '/favicon.svg',
  MCP_PATH,
  RESOURCE_METADATA_PATH,
  `${RESOURCE_METADATA_PATH}${MCP_PATH}`,
  SIGN_IN_PATH,
  '/desk/invitation',
  '/desk/totp',
  '/api/v1/openapi.json',
  ...[...DESK_OPERATIONS, 'sign-out', 'sign-out-everywhere'].map((name) => `${DESK_HTTP_PREFIX}/${name}`),
]);

/** Templates with a part that varies, literal paths first (as the router tries them). */
const templates: { template: string; test: RegExp }[] = [
  ...new Set([...operations.map((op) => `/api/v1${op.path}`), `${DESK_HTTP_PREFIX}/download/{exportId}`, `${DESK_HTTP_PREFIX}/receipts/{id}`, '/assets/{file}']),
]
  .sort((a, b) => Number(a.includes('{')) - Number(b.includes('{')))
  .map((template) => ({ template, test: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}$`) }));

/** The template of a path (without its query): a known one, or UNMATCHED. */
export function routeOf(path: string): string {
  // The routers are not strict: /transactions/ is /transactions.
  const p = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  if (exact.has(p)) return p;
  return templates.find((t) => t.test.test(p))?.template ?? UNMATCHED;
}
