// The renderer's one way to the ledger: the preload bridge in the desktop app,
// the session-protected HTTP route in a browser. Both answer {data} | {error}.
import type { DeskApi, DeskInput, DeskResult } from '../../main/desk/operations';
import { DESK_HTTP_PREFIX, DESK_OPERATIONS, type DeskAnswer, type DeskOperationName } from '../../shared/desk';

export class DeskError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: unknown,
  ) {
    super(message);
  }
}

export type DeskBridge = { [K in DeskOperationName]: (input: DeskInput<K>) => Promise<DeskAnswer<DeskResult<K>>> };

declare global {
  interface Window {
    ledgerdesk?: DeskBridge;
  }
}

async function overHttp(name: DeskOperationName, input: unknown): Promise<DeskAnswer<unknown>> {
  let res: Response;
  if (name === 'uploadReceipt') {
    const { orgId, fileName, bytes } = input as DeskInput<'uploadReceipt'>;
    const query = new URLSearchParams({ orgId, fileName });
    res = await fetch(`${DESK_HTTP_PREFIX}/uploadReceipt?${query}`, { method: 'POST', body: bytes as BodyInit, headers: { 'content-type': 'application/octet-stream' } });
  } else if (name === 'stageStatement') {
    const { orgId, fileName, bytes } = input as { orgId: string; fileName: string; bytes: Uint8Array };
    res = await fetch(`${DESK_HTTP_PREFIX}/stageStatement?${new URLSearchParams({ orgId, fileName })}`, {
      method: 'POST',
      body: bytes as BodyInit,
      headers: { 'content-type': 'application/octet-stream' },
    });
  } else {
    res = await fetch(`${DESK_HTTP_PREFIX}/${name}`, { method: 'POST', body: JSON.stringify(input ?? {}), headers: { 'content-type': 'application/json' } });
  }
  try {
    return (await res.json()) as DeskAnswer<unknown>;
  } catch {
    return { error: { code: 'internal_error', message: `The server answered HTTP ${res.status}.`, details: null } };
  }
}

const call = async (name: DeskOperationName, input: unknown): Promise<unknown> => {
  const bridge = window.ledgerdesk;
  const answer = bridge ? await (bridge[name] as (i: unknown) => Promise<DeskAnswer<unknown>>)(input) : await overHttp(name, input);
  if ('error' in answer) throw new DeskError(answer.error.code, answer.error.message, answer.error.details);
  return answer.data;
};

export const desk = Object.fromEntries(DESK_OPERATIONS.map((name) => [name, (input: unknown) => call(name, input)])) as DeskApi;

export const isBrowserMode = (): boolean => !window.ledgerdesk;

export async function signOut(): Promise<void> {
  await fetch(`${DESK_HTTP_PREFIX}/sign-out`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
}

/** Who a sign-in made the session for; `totpDue`: the second factor's code comes next. */
export interface SignedIn {
  name: string;
  email: string;
  totpDue: boolean;
}

/** The sign-in routes beside the operations (/desk/sign-in, /desk/invitation, /desk/totp): JSON in, the same answers out. */
export async function postJson<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  let answer: DeskAnswer<T>;
  try {
    answer = (await res.json()) as DeskAnswer<T>;
  } catch {
    throw new DeskError('internal_error', `The server answered HTTP ${res.status}.`, null);
  }
  if ('error' in answer) throw new DeskError(answer.error.code, answer.error.message, answer.error.details);
  return answer.data;
}

/** Every session of the person ends, this one too. */
export const signOutEverywhere = (): Promise<{ ended: number }> => postJson(`${DESK_HTTP_PREFIX}/sign-out-everywhere`, {});

/** Why a desk call was refused as unauthorized: 'no_session', 'totp_due', 'sign_in', ... (null: not that). */
export const unauthorizedReason = (error: unknown): string | null =>
  error instanceof DeskError && error.code === 'unauthorized' ? (((error.details as { reason?: string } | null)?.reason ?? 'no_session') as string) : null;
