import { unprocessable } from '../../errors.js';
import type { Codecs } from '../media/codec.js';
import type { Bridges } from './bridges.js';
import type { Playback, PlaybackRequest, Playbacks } from './playbacks.js';
import type { RecordRequest } from './record-request.js';
import type { LiveRecording } from './live-recording.js';
import type { Recordings } from './recordings.js';

/**
 * Playbacks and recordings on a bridge. Asterisk plays through an
 * "Announcer" channel and records through a "Recorder" channel it adds to
 * the bridge; announcer_format and recorder_format name those channels'
 * formats. Our mixer works on 8 kHz samples whatever they say, so they are
 * checked (an unknown one is Asterisk's 422) and otherwise change nothing.
 */
export class BridgeMedia {
  constructor(
    private readonly bridges: Bridges,
    private readonly playbacks: Playbacks,
    private readonly recordings: Recordings,
    private readonly codecs: Codecs,
  ) {}

  play(bridgeId: string, req: PlaybackRequest & { announcer_format?: string | undefined }): Playback {
    const b = this.bridges.get(bridgeId);
    if (req.announcer_format && !this.codecs.get(req.announcer_format)) throw unprocessable('specified announcer_format is unknown on this system');
    return this.playbacks.play(`bridge:${b.d.id}`, req, 'en');
  }

  record(bridgeId: string, req: RecordRequest & { recorder_format?: string | undefined }): LiveRecording {
    const b = this.bridges.get(bridgeId);
    // Asterisk checks the file format, then recorder_format, before the other parameters.
    if (!this.codecs.get(req.format)) throw unprocessable('specified format is unknown on this system');
    if (req.recorder_format && !this.codecs.get(req.recorder_format)) throw unprocessable('specified recorder_format is unknown on this system');
    // beep: the Recorder channel plays it into the bridge before capture starts, so the members hear it.
    return this.recordings.record({ targetUri: `bridge:${b.d.id}`, frame: (tick) => this.bridges.mix(b, tick), beep: (samples) => this.bridges.overlay(b, samples) }, req);
  }
}
