import type { Redirecting } from './channel.js';

/** What a channel's redirecting information is before anyone sets it. */
export function emptyRedirecting(): Redirecting {
  return { from: { name: '', number: '' }, to: { name: '', number: '' }, count: 0, reason: '' };
}

/** The REDIRECTING data types we keep, as `party-field` (from-num, to-name, …) plus count and reason. */
const FIELDS: Record<string, (r: Redirecting) => { get: () => string; set: (v: string) => void }> = {
  'from-name': (r) => ({ get: () => r.from.name, set: (v) => { r.from.name = v; } }),
  'from-num': (r) => ({ get: () => r.from.number, set: (v) => { r.from.number = v; } }),
  'to-name': (r) => ({ get: () => r.to.name, set: (v) => { r.to.name = v; } }),
  'to-num': (r) => ({ get: () => r.to.number, set: (v) => { r.to.number = v; } }),
  count: (r) => ({ get: () => String(r.count), set: (v) => { r.count = Math.max(0, Number.parseInt(v, 10) || 0); } }),
  reason: (r) => ({ get: () => r.reason, set: (v) => { r.reason = v; } }),
};

/** The accessor of one REDIRECTING data type, or undefined for one we do not keep. */
export function redirectingField(r: Redirecting, item: string): { get: () => string; set: (v: string) => void } | undefined {
  const f = Object.hasOwn(FIELDS, item) ? FIELDS[item] : undefined;
  return f?.(r);
}
