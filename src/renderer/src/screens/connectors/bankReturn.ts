// A bank's sign-in begun from this browser (issue 52, Enable Banking on a
// server): the bank sends the browser back to the server's callback route,
// which hands ?code&state (or ?error) to the root. Caught here before the desk
// reads its route, when the state is the one this browser began; the code
// leaves the address at once and the Connections screen finishes it (the
// server checks the state again, and uses it once).
const KEY = 'ledgerdesk.bank.signIn';

export interface BankReturn {
  state: string;
  code?: string;
  error?: string;
}

export function rememberBankSignIn(orgId: string, state: string): void {
  localStorage.setItem(KEY, JSON.stringify({ orgId, state }));
}

let returned: (BankReturn & { orgId: string }) | null = null;

export function catchBankReturn(): void {
  const q = new URLSearchParams(location.search);
  const state = q.get('state');
  const code = q.get('code') ?? undefined;
  const error = q.get('error_description') ?? q.get('error') ?? undefined;
  if (!state || (!code && !error)) return;
  let kept: { orgId?: string; state?: string } = {};
  try {
    kept = JSON.parse(localStorage.getItem(KEY) ?? '{}') as typeof kept;
  } catch {
    kept = {};
  }
  if (kept.state !== state || !kept.orgId) return;
  localStorage.removeItem(KEY);
  returned = { orgId: kept.orgId, state, code, error };
  history.replaceState(null, '', `/#/connections?org=${encodeURIComponent(kept.orgId)}`);
}

/** What the bank sent back for this organization, once. */
export function takeBankReturn(orgId: string): BankReturn | null {
  if (returned?.orgId !== orgId) return null;
  const { orgId: _, ...back } = returned;
  returned = null;
  return back;
}
