// What the HMRC panel keeps in the browser (issue 54): the device id HMRC's
// fraud prevention headers name (a UUID made once and kept in localStorage),
// the facts of this screen sent with every HMRC call (hmrc/fraud.ts's
// ClientFacts), and a sign-in under way: on a firm's server HMRC sends the
// browser back to the server's address with ?code&state, which is caught here
// before the desk reads its route, and finished by the panel.
import type { ClientFacts } from '../../../../../main/hmrc/fraud';
import { DeskError } from '../../../desk';

const DEVICE_KEY = 'ledgerdesk.hmrc.device';
const SIGN_IN_KEY = 'ledgerdesk.hmrc.signIn';

/** A v4 UUID, also where crypto.randomUUID is not offered (a page not served over HTTPS). */
function uuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** This browser's device id for HMRC: made once, kept. */
export function deviceId(): string {
  const kept = localStorage.getItem(DEVICE_KEY);
  if (kept && /^[0-9a-f-]{36}$/i.test(kept)) return kept;
  const id = uuid();
  localStorage.setItem(DEVICE_KEY, id);
  return id;
}

/** The screen, window, clock and browser, as HMRC asks them of the person's device, gathered at each call. */
export function clientFacts(): ClientFacts {
  return {
    deviceId: deviceId(),
    screens: [{ width: screen.width, height: screen.height, scalingFactor: window.devicePixelRatio || 1, colourDepth: screen.colorDepth }],
    windowSize: { width: window.innerWidth, height: window.innerHeight },
    timezoneOffsetMinutes: -new Date().getTimezoneOffset(),
    userAgent: navigator.userAgent.slice(0, 1000),
  };
}

/** A sign-in to HMRC begun from this browser: its state (read from HMRC's link) and the organization. */
export function rememberSignIn(orgId: string, link: string): void {
  const state = new URL(link).searchParams.get('state');
  if (state) localStorage.setItem(SIGN_IN_KEY, JSON.stringify({ orgId, state }));
}

let returned: { orgId: string; code: string; state: string } | null = null;

/**
 * At start: HMRC sent the browser back here (?code&state of the sign-in begun in this browser). The code leaves
 * the address at once, and the Tax screen of that organization opens to finish it.
 */
export function catchHmrcReturn(): void {
  const q = new URLSearchParams(location.search);
  const code = q.get('code');
  const state = q.get('state');
  if (!code || !state) return;
  let kept: { orgId?: string; state?: string } = {};
  try {
    kept = JSON.parse(localStorage.getItem(SIGN_IN_KEY) ?? '{}') as typeof kept;
  } catch {
    kept = {};
  }
  if (kept.state !== state || !kept.orgId) return;
  localStorage.removeItem(SIGN_IN_KEY);
  returned = { orgId: kept.orgId, code, state };
  history.replaceState(null, '', `/#/tax?org=${encodeURIComponent(kept.orgId)}`);
}

/** The code and state HMRC sent back for this organization, once. */
export function takeHmrcReturn(orgId: string): { code: string; state: string } | null {
  if (returned?.orgId !== orgId) return null;
  const r = returned;
  returned = null;
  return { code: r.code, state: r.state };
}

const LABELS: Record<string, string> = {
  confirmDeclaration: "HMRC's declaration",
  vrn: 'The VAT registration number',
  periodKey: 'The period',
};

/** A refusal in words: each field named as the screen names it. */
export function hmrcWords(error: unknown): string {
  if (error instanceof DeskError && error.code === 'validation_failed' && Array.isArray(error.details))
    return (error.details as { field: string; message: string }[]).map((d) => `${LABELS[d.field] ?? d.field} ${d.message}.`).join(' ');
  return error instanceof Error ? error.message : String(error);
}
