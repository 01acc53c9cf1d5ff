import * as op from '../../../protocol/ari/operations/playbacks.js';
import type { AriBinder } from '../http/bind.js';
import type { Telephony } from '../telephony.js';

export function mountPlaybacks(b: AriBinder, t: Pick<Telephony, 'playbacks'>): void {
  const { playbacks } = t;
  b.mount(op.getPlayback, (a) => playbacks.get(a.playbackId).json());
  b.mount(op.stopPlayback, (a) => playbacks.stop(a.playbackId));
  b.mount(op.controlPlayback, (a) => playbacks.control(a.playbackId, a.operation));
}
