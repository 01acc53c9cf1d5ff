/**
 * Which special range an IP address is in, and what the outbound address
 * policies (mirrors, ARI outbound WebSockets) make of it: public addresses
 * pass, loopback, private and Gitea's other reserved ranges pass only with
 * local networks allowed, and a few ranges are never reached whatever the
 * configuration says.
 */
import { isIP } from 'node:net';

const unbracket = (h: string) => (h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h);

/** The kinds of address a mirror target may resolve to (all but public ones can be refused). */
export type AddressRange = 'unspecified' | 'loopback' | 'private' | 'link-local' | 'metadata' | 'cgnat' | 'multicast' | 'reserved' | 'broadcast';

/**
 * Refused whatever the configuration says (local networks allowed, a host
 * the allow list names): Gitea's local-network allowance adds only its
 * private and loopback ranges, so link-local (the cloud metadata service),
 * unspecified, multicast and broadcast addresses are never reached; we also
 * keep the cloud metadata addresses that sit in other ranges out.
 */
const ALWAYS_REFUSED: ReadonlySet<AddressRange> = new Set<AddressRange>(['unspecified', 'link-local', 'metadata', 'multicast', 'broadcast']);

/** An address no policy lets a mirror reach (also any text that is not an address). */
export function neverAllowed(address: string): boolean {
  const bytes = parseIp(address);
  if (!bytes) return true;
  const range = classifyAddress(bytes);
  return range !== undefined && ALWAYS_REFUSED.has(range);
}

/** Whether the policy without lists admits the address. */
export function addressAllowed(address: string, allowLocalNetworks: boolean): boolean {
  const bytes = parseIp(address);
  if (!bytes) return false;
  const range = classifyAddress(bytes);
  if (range === undefined) return true;
  return allowLocalNetworks && !ALWAYS_REFUSED.has(range);
}

/** The special range an address (4 or 16 bytes) is in; undefined for a public one. */
export function classifyAddress(bytes: number[]): AddressRange | undefined {
  if (bytes.length === 4) {
    const [a, b, c, d] = bytes as [number, number, number, number];
    if (a === 0) return 'unspecified'; // 0.0.0.0/8
    if (a === 10) return 'private';
    if (a === 100 && b === 100 && c === 100 && d === 200) return 'metadata'; // Alibaba Cloud's, inside CGNAT
    if (a === 100 && (b & 0xc0) === 64) return 'cgnat'; // 100.64.0.0/10
    if (a === 168 && b === 63 && c === 129 && d === 16) return 'metadata'; // Azure's WireServer
    if (a === 127) return 'loopback';
    if (a === 169 && b === 254) return c === 169 && d === 254 ? 'metadata' : 'link-local';
    if (a === 172 && (b & 0xf0) === 16) return 'private'; // 172.16.0.0/12
    if (a === 192 && b === 168) return 'private';
    // Special-purpose ranges Gitea's hostmatcher does not count as external: protocol
    // assignments, the three documentation nets, the 6to4 relay, benchmarking.
    if (a === 192 && b === 0 && (c === 0 || c === 2)) return 'reserved';
    if (a === 192 && b === 88 && c === 99) return 'reserved';
    if (a === 198 && (b & 0xfe) === 18) return 'reserved'; // 198.18.0.0/15
    if ((a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113)) return 'reserved';
    if (a >= 224 && a < 240) return 'multicast';
    if (a === 255 && b === 255 && c === 255 && d === 255) return 'broadcast';
    if (a >= 240) return 'reserved';
    return undefined;
  }
  const zeroUntil = (n: number) => bytes.slice(0, n).every((x) => x === 0);
  const v4At = (at: number) => bytes.slice(at, at + 4);
  if (zeroUntil(16)) return 'unspecified';
  if (zeroUntil(15) && bytes[15] === 1) return 'loopback';
  if (zeroUntil(10) && bytes[10] === 0xff && bytes[11] === 0xff) return classifyAddress(v4At(12)); // ::ffff:a.b.c.d
  if (zeroUntil(12)) return 'reserved'; // ::a.b.c.d, the deprecated IPv4-compatible form
  // 64:ff9b::/96 (NAT64) and 2002::/16 (6to4) carry an IPv4 address that a gateway would reach:
  // its range when it has one (so the metadata address stays never), else reserved, as Gitea counts them.
  if (bytes[0] === 0 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && bytes.slice(4, 12).every((x) => x === 0)) return classifyAddress(v4At(12)) ?? 'reserved';
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return classifyAddress(v4At(2)) ?? 'reserved';
  if (bytes.map((x) => x.toString(16).padStart(2, '0')).join('') === 'fd000ec2000000000000000000000254') return 'metadata'; // fd00:ec2::254
  const [b0, b1, b2, b3] = bytes as [number, number, number, number];
  if (b0 === 0 && b1 === 0x64 && b2 === 0xff && b3 === 0x9b && bytes[4] === 0 && bytes[5] === 1) return 'reserved'; // 64:ff9b:1::/48, local NAT64
  if (b0 === 0x01 && b1 === 0 && bytes.slice(2, 8).every((x) => x === 0)) return 'reserved'; // 100::/64, discard
  // 2001::/32 (Teredo), 2001:10::/28 and 2001:20::/28 (ORCHID), 2001:db8::/32 (documentation).
  if (b0 === 0x20 && b1 === 0x01 && ((b2 === 0 && b3 === 0) || (b2 === 0 && (b3 & 0xf0) === 0x10) || (b2 === 0 && (b3 & 0xf0) === 0x20) || (b2 === 0x0d && b3 === 0xb8))) return 'reserved';
  if ((b0 & 0xfe) === 0xfc) return 'private'; // fc00::/7
  if (b0 === 0xfe && (b1 & 0xc0) === 0x80) return 'link-local'; // fe80::/10
  if (b0 === 0xfe && (b1 & 0xc0) === 0xc0) return 'private'; // fec0::/10, the deprecated site-local
  if (b0 === 0xff) return 'multicast';
  return undefined;
}

/** 4 or 16 bytes, or undefined when the text is not an IP address. */
export function parseIp(text: string): number[] | undefined {
  const address = unbracket(text).replace(/%.*$/s, ''); // an IPv6 zone does not matter here
  const kind = isIP(address);
  if (kind === 4) return address.split('.').map(Number);
  if (kind !== 6) return undefined;
  let head = address;
  let v4: number[] = [];
  const lastColon = address.lastIndexOf(':');
  if (address.slice(lastColon + 1).includes('.')) {
    // A trailing dotted IPv4 part (::ffff:1.2.3.4) stands for the last two groups.
    v4 = address.slice(lastColon + 1).split('.').map(Number);
    head = address.slice(0, lastColon);
    if (head.endsWith(':')) head += ':';
  }
  const groups = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const wanted = 8 - v4.length / 2;
  const double = head.indexOf('::');
  let words: number[];
  if (double >= 0) {
    const left = groups(head.slice(0, double));
    const right = groups(head.slice(double + 2));
    words = [...left, ...new Array<number>(wanted - left.length - right.length).fill(0), ...right];
  } else {
    words = groups(head);
  }
  const bytes: number[] = [];
  for (const w of words) bytes.push(w >> 8, w & 0xff);
  bytes.push(...v4);
  return bytes.length === 16 ? bytes : undefined;
}
