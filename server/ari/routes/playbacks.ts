import type { ModelOf } from '../../../protocol/model.js';
import type { Playback } from '../../../protocol/ari/models/media.js';
import * as op from '../../../protocol/ari/operations/playbacks.js';
import type { AriBinder } from '../../http/ari-bind.js';
import type { Telephony } from '../telephony.js';

export function mountPlaybacks(b: AriBinder, t: Telephony): void {
  const { playbacks } = t;
  b.mount(op.getPlayback, (a) => playbacks.get(a.playbackId).json() as ModelOf<typeof Playback>);
  b.mount(op.stopPlayback, (a) => playbacks.stop(a.playbackId));
  b.mount(op.controlPlayback, (a) => playbacks.control(a.playbackId, a.operation));
}
