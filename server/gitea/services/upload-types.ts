import { goDetectContentType } from './sniff.js';

/** Gitea's refusal of a file its ALLOWED_TYPES setting does not list. */
export const FORBIDDEN_TYPE = 'This file cannot be uploaded or modified due to a forbidden file extension or type.';

/**
 * Gitea's upload.Verify: whether a file may be stored under an ALLOWED_TYPES
 * list (comma- or `|`-separated, case-insensitive). An empty list or `*\/*`
 * takes anything; `.ext` matches the name's extension; a MIME type or a
 * `type/*` wildcard matches the type sniffed from the first bytes (Go's
 * DetectContentType). With no bytes (a rename) only extensions can match.
 */
export function typeAllowed(head: Buffer | null, name: string, allowedTypes: string): boolean {
  const allowed = allowedTypes
    .replaceAll('|', ',')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  if (allowed.length === 0) return true;
  const dot = name.lastIndexOf('.');
  const slash = name.lastIndexOf('/');
  const ext = dot > slash ? name.slice(dot).toLowerCase() : '';
  const mime = head && head.length > 1 ? goDetectContentType(head).split(';')[0]!.trim() : '';
  return allowed.some(
    (e) => e === '*/*' || (e.startsWith('.') && e === ext) || (mime !== '' && (e === mime || (/^[a-z]+\/\*$/.test(e) && mime.startsWith(e.slice(0, -1))))),
  );
}
