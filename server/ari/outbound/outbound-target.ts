import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { addressAllowed } from '../../util/address-ranges.js';

/** Resolves a host name to every address it has (tests inject their own). */
export type Resolve = (host: string) => Promise<string[]>;

const systemResolve: Resolve = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** Where one connection attempt may go: the addresses checked, or why none. */
export type TargetCheck = { ok: true; addresses: string[] } | { ok: false; reason: 'refused' | 'unresolved' };

/**
 * The address policy of outbound WebSockets, the mirrors' thinking applied
 * to ARI: the host (an IP literal, or every address its name resolves to)
 * must be public unless ARI_OUTBOUND_ALLOW_LOCAL_NETWORKS is on, and ranges
 * no configuration opens (link-local with the cloud metadata service,
 * unspecified, multicast, broadcast) are never reached. The check runs
 * before each attempt, and the attempt connects to exactly the addresses
 * checked, so a name whose answer changes in between gains nothing.
 */
export async function checkOutboundTarget(uri: string, allowLocalNetworks: boolean, resolve: Resolve = systemResolve): Promise<TargetCheck> {
  const host = new URL(uri).hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      return { ok: false, reason: 'unresolved' };
    }
    if (!addresses.length) return { ok: false, reason: 'unresolved' };
  }
  if (!addresses.every((a) => addressAllowed(a, allowLocalNetworks))) return { ok: false, reason: 'refused' };
  return { ok: true, addresses };
}
