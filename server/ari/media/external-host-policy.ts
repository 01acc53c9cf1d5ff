import { BlockList, isIP } from 'node:net';

/**
 * Where external media may send a channel's audio (RTP) or connect
 * (AudioSocket). `external_host` is an IP literal (no name is resolved, so
 * nothing can change under us later). Addresses that are never a media peer
 * are refused whatever the settings say: unspecified, broadcast, multicast,
 * link-local (which holds the cloud metadata service) and the IPv6 metadata
 * address. Beyond that, EXTERNAL_MEDIA_ALLOWED_NETWORKS (CIDRs, default every
 * unicast address, loopback and private networks included, where voice bots
 * usually run) decides.
 */
export interface ExternalHostPolicy {
  /** Why `host` is refused, or undefined when it is allowed. */
  refusal(host: string): string | undefined;
}

const NEVER: Array<[string, number, 'ipv4' | 'ipv6']> = [
  ['0.0.0.0', 8, 'ipv4'],
  ['255.255.255.255', 32, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['fd00:ec2::254', 128, 'ipv6'],
];

/** Parses `a.b.c.d/n` or `x::/n` (a bare address is one host). */
export function parseCidr(text: string): [string, number, 'ipv4' | 'ipv6'] | undefined {
  const [addr = '', bits] = text.trim().split('/');
  const family = isIP(addr);
  if (!family) return undefined;
  const max = family === 4 ? 32 : 128;
  const n = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
  if (!(n >= 0 && n <= max)) return undefined;
  return [addr, n, family === 4 ? 'ipv4' : 'ipv6'];
}

export function createExternalHostPolicy(allowedNetworks: string[]): ExternalHostPolicy {
  const never = new BlockList();
  for (const [a, n, f] of NEVER) never.addSubnet(a, n, f);
  const allowed = new BlockList();
  for (const cidr of allowedNetworks) {
    const parsed = parseCidr(cidr);
    if (parsed) allowed.addSubnet(...parsed);
  }
  return {
    refusal(host) {
      const family: 'ipv4' | 'ipv6' = isIP(host) === 6 ? 'ipv6' : 'ipv4';
      // IPv4-mapped IPv6 addresses are judged as the IPv4 address they carry.
      const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(host)?.[1];
      const [addr, fam]: [string, 'ipv4' | 'ipv6'] = mapped ? [mapped, 'ipv4'] : [host, family];
      if (never.check(addr, fam)) return `external_host ${host} is not an address media can be sent to`;
      if (!allowed.check(addr, fam)) return `external_host ${host} is outside EXTERNAL_MEDIA_ALLOWED_NETWORKS`;
      return undefined;
    },
  };
}
