// Health checks (issue 51) for a container's probe, a service manager or a load
// balancer: `GET /healthz` (the process lives and answers) and `GET /readyz` (its
// database answers, holds exactly this build's migrations, and the process is not
// stopping). No token, and no Host check: a probe names the server by 127.0.0.1,
// the container's name or its pod's address (a Dockerfile's HEALTHCHECK calls
// http://127.0.0.1:PORT/healthz whatever the public URL), none of which the Host
// guard need know. The Origin check stays (a probe sends none; a page elsewhere
// in a browser is refused, as on every route). They say nothing else (no version,
// path or count); every other route keeps both checks.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError } from '../api/errors';
import { sendJson } from '../api/http';
import type { LedgerError } from '../ledger/core/errors';
import { HEALTH_PATH, READY_PATH } from './routes';

/** How long a readiness check waits for the database before it says "not ready". */
const READY_WITHIN_MS = 5_000;

const within = (check: Promise<boolean>, ms: number): Promise<boolean> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void check
      .then(
        (ok) => resolve(ok),
        () => resolve(false),
      )
      .finally(() => clearTimeout(timer));
  });

/**
 * Answers a health check and says so (true), or leaves the request to the routes (false). `originRefusal`: the
 * guard's answer to the request's Origin (api/guards.ts), null when it may go on.
 */
export function answerHealth(req: IncomingMessage, res: ServerResponse, ready: () => Promise<boolean>, originRefusal: (origin: string | undefined) => LedgerError | null): boolean {
  const path = (req.url ?? '').split('?')[0];
  if (path !== HEALTH_PATH && path !== READY_PATH) return false;
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  const head = req.method === 'HEAD';
  const refused = originRefusal(req.headers.origin);
  if (refused) {
    sendError(res, refused);
  } else if (req.method !== 'GET' && !head) {
    res.setHeader('Allow', 'GET, HEAD');
    sendJson(res, 405, { status: 'method_not_allowed' });
  } else if (path === HEALTH_PATH) {
    sendJson(res, 200, { status: 'ok' }, 'application/json', head);
  } else {
    void within(ready(), READY_WITHIN_MS).then((ok) => sendJson(res, ok ? 200 : 503, { status: ok ? 'ready' : 'unavailable' }, 'application/json', head));
  }
  return true;
}
