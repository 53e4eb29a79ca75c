// A validator of HMRC's fraud prevention headers, written from HMRC's
// specification (hmrc/txm-fph-specification: source/connection-method/*, the
// partials of each header, getting-it-right's encoding rules): every header the
// connection method requires is present, each in its format, key-value data
// and lists percent-encoded. Headers the specification lets be missing after
// talking to HMRC (multi-factor, licence ids, public IP, port and forwarding)
// may be empty. The HMRC double applies it to every call; tests call it too.
import { isIP } from 'node:net';

const DIRECT = [
  'Gov-Client-Connection-Method',
  'Gov-Client-Device-ID',
  'Gov-Client-Local-IPs',
  'Gov-Client-Local-IPs-Timestamp',
  'Gov-Client-MAC-Addresses',
  'Gov-Client-Multi-Factor',
  'Gov-Client-Timezone',
  'Gov-Client-User-Agent',
  'Gov-Client-User-IDs',
  'Gov-Vendor-License-IDs',
  'Gov-Vendor-Product-Name',
  'Gov-Vendor-Version',
];
/** Each connection method's headers (its page in the specification). */
export const REQUIRED: Record<string, string[]> = {
  DESKTOP_APP_DIRECT: [...DIRECT, 'Gov-Client-Screens', 'Gov-Client-Window-Size'],
  OTHER_DIRECT: DIRECT,
  WEB_APP_VIA_SERVER: [
    'Gov-Client-Connection-Method',
    'Gov-Client-Browser-JS-User-Agent',
    'Gov-Client-Device-ID',
    'Gov-Client-Multi-Factor',
    'Gov-Client-Public-IP',
    'Gov-Client-Public-IP-Timestamp',
    'Gov-Client-Public-Port',
    'Gov-Client-Screens',
    'Gov-Client-Timezone',
    'Gov-Client-User-IDs',
    'Gov-Client-Window-Size',
    'Gov-Vendor-Forwarded',
    'Gov-Vendor-License-IDs',
    'Gov-Vendor-Product-Name',
    'Gov-Vendor-Public-IP',
    'Gov-Vendor-Version',
  ],
};
/** "After discussing a missing header with us, you can omit the header or submit it with an empty value." */
const MAY_BE_EMPTY = new Set([
  'Gov-Client-Multi-Factor',
  'Gov-Vendor-License-IDs',
  'Gov-Client-Public-IP',
  'Gov-Client-Public-IP-Timestamp',
  'Gov-Client-Public-Port',
  'Gov-Vendor-Public-IP',
  'Gov-Vendor-Forwarded',
]);

const ENCODED = /^(?:[A-Za-z0-9\-._~]|%[0-9A-F]{2})*$/;
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const positive = (v: string | undefined) => v !== undefined && /^[1-9]\d*$/.test(v);

/** A key-value structure (k=v&k=v), each key and value percent-encoded: the pairs decoded, or null where it is not one. */
function keyValues(text: string): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const pair of text.split('&')) {
    const [k, v, ...rest] = pair.split('=');
    if (rest.length || v === undefined || !k || !ENCODED.test(k) || !ENCODED.test(v)) return null;
    out[decodeURIComponent(k)] = decodeURIComponent(v);
  }
  return out;
}
/** A list (v,v), each value percent-encoded and not empty. */
const list = (text: string): string[] | null => {
  const values = text.split(',');
  return values.every((v) => v && ENCODED.test(v)) ? values.map(decodeURIComponent) : null;
};
const listOf = (text: string) => text.split(',').map(keyValues);

const CHECKS: Record<string, (v: string, method: string) => string | null> = {
  'Gov-Client-Connection-Method': (v, m) => (v === m ? null : `is ${v}, not ${m}`),
  'Gov-Client-Device-ID': (v) => (UUID.test(v) ? null : 'is not a UUID'),
  'Gov-Client-Local-IPs': (v) => (list(v)?.every((ip) => isIP(ip)) ? null : 'is not a list of percent-encoded IP addresses'),
  'Gov-Client-Local-IPs-Timestamp': (v) => (TIMESTAMP.test(v) ? null : 'is not yyyy-MM-ddThh:mm:ss.sssZ'),
  'Gov-Client-Public-IP-Timestamp': (v) => (TIMESTAMP.test(v) ? null : 'is not yyyy-MM-ddThh:mm:ss.sssZ'),
  'Gov-Client-MAC-Addresses': (v) => (list(v)?.every((m) => /^([0-9a-f]{2}:){5}[0-9a-f]{2}$/i.test(m)) ? null : 'is not a list of percent-encoded MAC addresses'),
  'Gov-Client-Multi-Factor': (v) =>
    listOf(v).every((f) => f && ['TOTP', 'AUTH_CODE', 'OTHER'].includes(f.type) && /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?Z$/.test(f.timestamp ?? '') && f['unique-reference'])
      ? null
      : 'is not a list of type, timestamp (yyyy-MM-ddThh:mmZ) and unique-reference',
  'Gov-Client-Screens': (v) =>
    listOf(v).every((s) => s && positive(s.width) && positive(s.height) && /^\d+(\.\d+)?$/.test(s['scaling-factor'] ?? '') && positive(s['colour-depth']))
      ? null
      : 'is not a list of width, height, scaling-factor and colour-depth',
  'Gov-Client-Window-Size': (v) => {
    const w = keyValues(v);
    return w && positive(w.width) && positive(w.height) ? null : 'is not width and height, positive whole numbers';
  },
  'Gov-Client-Timezone': (v) => (/^UTC[+-]\d\d:\d\d$/.test(v) ? null : 'is not UTC±hh:mm'),
  'Gov-Client-User-Agent': (v) => {
    const a = keyValues(v);
    return a && ['os-family', 'os-version', 'device-manufacturer', 'device-model'].every((k) => k in a) && a['os-family']
      ? null
      : 'is not os-family, os-version, device-manufacturer and device-model, percent-encoded';
  },
  'Gov-Client-User-IDs': (v) => {
    const ids = keyValues(v);
    return ids && Object.values(ids).some(Boolean) ? null : 'is not a percent-encoded key-value structure of user ids';
  },
  'Gov-Client-Browser-JS-User-Agent': (v) => (v.trim() ? null : 'is empty'),
  'Gov-Client-Public-IP': (v) => (isIP(v) ? null : 'is not an IP address'),
  'Gov-Client-Public-Port': (v) => (positive(v) && Number(v) <= 65535 && !['80', '443'].includes(v) ? null : 'is not a client port (1-65535, not a server port)'),
  'Gov-Vendor-Public-IP': (v) => (isIP(v) ? null : 'is not an IP address'),
  'Gov-Vendor-Forwarded': (v) => (listOf(v).every((h) => h && isIP(h.by ?? '') && isIP(h.for ?? '')) ? null : 'is not a list of by and for addresses'),
  'Gov-Vendor-License-IDs': (v) => (keyValues(v) ? null : 'is not a percent-encoded key-value structure'),
  'Gov-Vendor-Product-Name': (v) => (ENCODED.test(v) && v ? null : 'is not percent-encoded'),
  'Gov-Vendor-Version': (v, m) => {
    const versions = keyValues(v);
    if (!versions) return 'is not a percent-encoded key-value structure';
    return m.endsWith('_VIA_SERVER') && Object.keys(versions).length < 2 ? 'names fewer than two pieces of software (client and server)' : null;
  },
};

/** What is wrong with a call's fraud prevention headers (none: []). `get` reads a header by name, any case. */
export function fraudHeaderProblems(get: (name: string) => string | undefined | null): string[] {
  const method = get('Gov-Client-Connection-Method') ?? '';
  const required = REQUIRED[method];
  if (!required) return [`Gov-Client-Connection-Method ${method ? `${method} is not a connection method this client may use` : 'is missing'}`];
  const problems: string[] = [];
  for (const name of required) {
    const value = get(name);
    if (value === undefined || value === null) problems.push(`${name} is missing`);
    else if (value === '') {
      if (!MAY_BE_EMPTY.has(name)) problems.push(`${name} is empty, and the specification does not allow it`);
    } else {
      const wrong = CHECKS[name]?.(value, method);
      if (wrong) problems.push(`${name} ${wrong}: ${value}`);
    }
  }
  return problems;
}
