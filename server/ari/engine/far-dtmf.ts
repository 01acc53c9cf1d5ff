import { FAR_DTMF_KEEP } from '../../../protocol/sim/models.js';
import type { Channel, FarDtmf } from './channel.js';

// A channel's far end keeps the newest FAR_DTMF_KEEP digits we sent it: a long
// call sent digits without end would otherwise grow the channel's record
// (rewritten at every commit) without bound.

type Far = Channel['d']['far'];

/** Digits sent to the far end since the channel was made, kept or not (rows from before the count read their list's length). */
export function farDtmfTotal(far: Far): number {
  return far.dtmfTotal ?? far.dtmf.length;
}

/** The far end received a digit from us: it is kept among the newest FAR_DTMF_KEEP. */
export function pushFarDtmf(far: Far, digit: FarDtmf): void {
  far.dtmfTotal = farDtmfTotal(far) + 1;
  far.dtmf.push(digit);
  if (far.dtmf.length > FAR_DTMF_KEEP) far.dtmf.splice(0, far.dtmf.length - FAR_DTMF_KEEP);
}

/** The kept digits after the first `seen` ever sent (older ones no longer kept are skipped). */
export function farDtmfAfter(far: Far, seen: number): FarDtmf[] {
  const firstKept = farDtmfTotal(far) - far.dtmf.length;
  return far.dtmf.slice(Math.max(0, seen - firstKept));
}
