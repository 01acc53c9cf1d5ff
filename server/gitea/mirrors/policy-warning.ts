import type { Logger } from '../../log.js';
import { normaliseScpAddress } from './url-policy.js';

/** The host of a mirror address, for a log line: never its user information or path; `local path` for a file address. */
function hostOf(address: string): string {
  try {
    const url = new URL(normaliseScpAddress(address.trim()));
    return url.protocol === 'file:' ? 'local path' : url.host;
  } catch {
    return /^[a-z][a-z0-9+.-]*:\/\//i.test(address.trim()) ? 'unparsable address' : 'local path';
  }
}

/**
 * A `warn` that the mirror address policy refused an address (when a mirror
 * is added, or before a sync), naming the setting that would allow it —
 * MIRROR_ALLOW_LOCAL_NETWORKS, MIRROR_ALLOWED_DOMAINS or
 * MIRROR_BLOCKED_DOMAINS — or saying that none would (addresses such as
 * link-local and cloud metadata ranges are never allowed).
 */
export function warnAddressRefused(log: Logger, fields: { kind: 'push' | 'pull'; address: string; repo?: string; user?: string }, setting: string | undefined): void {
  const { address, ...rest } = fields;
  const msg = setting ? `mirror address refused by the address policy; ${setting} would allow it` : 'mirror address refused by the address policy; no setting allows it';
  log.warn({ ...rest, host: hostOf(address), setting: setting ?? null }, msg);
}
