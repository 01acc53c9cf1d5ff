import * as op from '../../../protocol/ari/operations/recordings.js';
import type { AriBinder } from '../http/bind.js';
import type { Telephony } from '../telephony.js';

export function mountRecordings(b: AriBinder, t: Pick<Telephony, 'recordings'>): void {
  const { recordings } = t;
  b.mount(op.listStored, () => recordings.listStored());
  b.mount(op.getStored, (a) => recordings.getStored(a.recordingName));
  b.mount(op.deleteStored, (a) => recordings.deleteStored(a.recordingName));
  b.mount(op.getStoredFile, (a) => recordings.file(a.recordingName));
  b.mount(op.copyStored, (a) => recordings.copy(a.recordingName, a.destinationRecordingName));
  b.mount(op.getLive, (a) => recordings.getLive(a.recordingName).json());
  b.mount(op.cancelLive, (a) => recordings.control(a.recordingName, 'cancel'));
  b.mount(op.stopLive, (a) => recordings.control(a.recordingName, 'stop'));
  b.mount(op.pauseLive, (a) => recordings.control(a.recordingName, 'pause'));
  b.mount(op.unpauseLive, (a) => recordings.control(a.recordingName, 'unpause'));
  b.mount(op.muteLive, (a) => recordings.control(a.recordingName, 'mute'));
  b.mount(op.unmuteLive, (a) => recordings.control(a.recordingName, 'unmute'));
}
