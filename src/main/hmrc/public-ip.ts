// The public addresses HMRC asks of a web app via a server (issue 54;
// hmrc/txm-fph-specification: Gov-Client-Public-IP, -Port, -IP-Timestamp,
// Gov-Vendor-Public-IP, Gov-Vendor-Forwarded), from the request as the server
// saw it (api/seen.ts). A private address is no public one: "if the
// connection between client and server is over a private network, you will not
// be able to collect a value", so it is left out (sent empty) rather than sent
// as if it were, and hops within a private network are not listed.
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { plainIp, type SeenRequest } from '../api/seen';
import type { FraudInput } from './fraud';

/** Addresses that are not on the public internet (IANA's special-purpose registries: private, shared, loopback, link-local, documentation, multicast, reserved). */
const NOT_PUBLIC = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const)
  NOT_PUBLIC.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC.addSubnet(net, bits, 'ipv6');

/** An address on the public internet (IPv6: global unicast, 2000::/3, less documentation's). */
export function isPublicIp(text: string): boolean {
  // IPv4 written as IPv6 is checked as IPv4 (BlockList would match it against IPv4-mapped rules only).
  const address = plainIp(text);
  const kind = isIP(address);
  if (kind === 4) return !NOT_PUBLIC.check(address, 'ipv4');
  if (kind === 6) return !NOT_PUBLIC.check(address, 'ipv6') && /^[23][0-9a-f]{3}$/i.test(address.split(':')[0]);
  return false;
}

/** The addresses a name resolves to (an address is itself), or none within two seconds. */
async function addressesOf(host: string): Promise<string[]> {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare)) return [bare];
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<[]>((ok) => (timer = setTimeout(() => ok([]), 2000)));
  try {
    return await Promise.race([lookup(bare, { all: true }).then((list) => list.map((a) => a.address)), late]);
  } catch {
    return []; // the name does not resolve from here
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The facts of a request HMRC's web headers need. The vendor's public IP is the address the client connected to:
 * the one a trusted proxy names with `by`, else the one the server's public address (serve --public-url) resolves
 * to (HMRC: "the vendor's DNS record"), else this server's own where it is public. Each internet hop is `by` the
 * address that received it `for` the one that sent it, the first hop's receiver being the vendor's public IP.
 */
export async function webRequestFacts(seen: SeenRequest | undefined, publicUrl: string | undefined): Promise<Pick<FraudInput, 'request' | 'vendorPublicIp' | 'forwarded'>> {
  if (!seen?.hops.length) return {};
  const [client] = seen.hops;
  const named = publicUrl ? (await addressesOf(new URL(publicUrl).hostname)).find(isPublicIp) : undefined;
  const vendorPublicIp = [client.by, named, seen.hops.at(-1)!.by].find((a): a is string => Boolean(a && isPublicIp(a)));
  const publicIp = isPublicIp(client.for) ? client.for : undefined;
  const forwarded = seen.hops
    .map((hop, i) => ({ by: hop.by ?? (i === 0 ? vendorPublicIp : undefined), for: hop.for }))
    .filter((hop): hop is { by: string; for: string } => Boolean(hop.by && isPublicIp(hop.by) && isPublicIp(hop.for)));
  return {
    request: { publicIp, publicPort: publicIp ? client.port : undefined, at: seen.at },
    vendorPublicIp,
    forwarded,
  };
}
