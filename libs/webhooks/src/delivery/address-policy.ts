// Which addresses may receive a delivery: global unicast only. A webhook URL is chosen by a client, so without this
// rule the dispatcher would POST, from inside the platform's network, to whatever the client names: the cloud
// metadata service (169.254.169.254), Redis on 127.0.0.1, a database on 10.x. The rule is applied to the address a
// socket actually connects to (see guarded-connector.ts), not only to what a name resolved to at registration.
import { isIPv4 } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface TargetPolicy {
  /**
   * Local development only (`npm start`): loopback targets (127.0.0.0/8, ::1, `localhost`) are accepted, and over
   * plain http:// as well, so a developer can receive webhooks on their own machine. Off by default, and off in every
   * deployed environment.
   */
  allowLoopback: boolean;
}

export const PRODUCTION_TARGET_POLICY: TargetPolicy = { allowLoopback: false };

const RANGE_NAMES: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT address',
  private: 'a private address',
  uniqueLocal: 'a unique-local (private) address',
  reserved: 'a reserved address',
};

/** IPv6 global unicast (RFC 4291 2000::/3); ipaddr.js calls every address outside its special ranges "unicast". */
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/** The range of an address, IPv4-mapped IPv6 (::ffff:a.b.c.d) judged as the IPv4 address it stands for. */
function rangeOf(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return undefined;
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (parsed.kind() === 'ipv6' && range === 'unicast' && !parsed.match(IPV6_GLOBAL_UNICAST)) return 'reserved';
  return range;
}

export function isLoopbackAddress(address: string): boolean {
  return rangeOf(address) === 'loopback';
}

/** Why no delivery may go to this address ("10.0.0.1, a private address"), or undefined when it may. */
export function addressRefusal(address: string, policy: TargetPolicy): string | undefined {
  const range = rangeOf(address);
  if (range === undefined) return `${address}, not an IP address`;
  if (range === 'unicast' || (range === 'loopback' && policy.allowLoopback)) return undefined;
  return `${address}, ${RANGE_NAMES[range] ?? `not a global unicast address (${range})`}`;
}

/** `localhost` and its subdomains resolve to loopback by definition (RFC 6761). */
export function isLoopbackHostname(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  // A dotted-quad (the only IPv4 form isIPv4 accepts, and what URL parsing produces) is loopback exactly when it is in 127/8.
  return isIPv4(host) ? host.startsWith('127.') : isLoopbackAddress(host);
}
