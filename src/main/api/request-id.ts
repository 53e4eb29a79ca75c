// Each request's id (issue 51): the caller's `X-Request-Id` when it is sane, else a
// new one; echoed in the answer, on every log line the request causes, and in
// every 500's error envelope, so that a person holding the answer finds the log
// line. Kept in AsyncLocalStorage, so that code deep in a request (an error
// rendered by the desk, a tool call) names it without being handed it.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** A proxy's or client's id is taken as it is when it is short and plain (a UUID, a trace id); anything else is replaced. */
const SANE = /^[\w.:/+=@-]{1,128}$/;

const current = new AsyncLocalStorage<string>();

export const requestIdOf = (header: string | string[] | undefined): string => (typeof header === 'string' && SANE.test(header) ? header : randomUUID());

/** Runs fn (and everything it starts) as the request `id`. */
export const withRequestId = <T>(id: string, fn: () => T): T => current.run(id, fn);

/** The id of the request being served, if any (none on the desktop's IPC and in commands). */
export const currentRequestId = (): string | undefined => current.getStore();
