/**
 * Is a host a loopback address? Plain `http://` is only allowed to loopback, so a
 * token never crosses a network in clear text. The decision compares parsed IP addresses with
 * node:net's BlockList (127.0.0.0/8, ::1, and IPv4-mapped ::ffff:127.0.0.0/104), never string
 * prefixes: `127.evil.com` or `http://127.0.0.1.nip.io` are not loopback.
 *
 * `localhost` is accepted by name. This machine has no DNS, and the name is reserved for
 * loopback (RFC 6761), so it is not resolved; other names are never looked up.
 */
import { BlockList, isIP } from 'node:net';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');
loopback.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');

/**
 * True when `hostname` (as in `URL.hostname`: IPv6 in brackets allowed) is a loopback
 * address literal or the name `localhost`.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase();
  if (host === 'localhost') return true;
  const family = isIP(host);
  if (family === 4) return loopback.check(host, 'ipv4');
  if (family === 6) return loopback.check(host, 'ipv6');
  return false;
}
