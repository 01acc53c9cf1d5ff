import { join } from 'node:path';
import type { AriLimits } from '../config.js';
import type { ChannelRepo } from '../db/repos/channel-repo.js';
import type { BridgeRepo, RecordingRepo } from '../db/repos/recording-repo.js';
import { MediaClock } from './media/media-clock.js';
import { createExternalHostPolicy } from './media/external-host-policy.js';
import { Codecs } from './media/codec.js';
import { AudioRouter } from './engine/audio.js';
import { Bridges } from './engine/bridges.js';
import { Calls } from './engine/calls.js';
import { Control } from './engine/control.js';
import { Engine, type EngineOptions } from './engine/engine.js';
import { ExternalMedia } from './engine/external-media.js';
import { FarEnd } from './engine/far-end.js';
import { Pbx } from './engine/pbx.js';
import { Playbacks } from './engine/playbacks.js';
import { Recordings } from './engine/recordings.js';
import { Snoops } from './engine/snoops.js';
import { Variables } from './engine/variables.js';

export interface Telephony {
  engine: Engine;
  vars: Variables;
  calls: Calls;
  pbx: Pbx;
  control: Control;
  farEnd: FarEnd;
  clock: MediaClock;
  codecs: Codecs;
  router: AudioRouter;
  playbacks: Playbacks;
  recordings: Recordings;
  bridges: Bridges;
  snoops: Snoops;
  external: ExternalMedia;
  /** Stops media (recordings are completed and kept) and the engine. */
  stop(): void;
}

export interface TelephonyOptions extends EngineOptions {
  repo: ChannelRepo;
  recordingRepo: RecordingRepo;
  bridgeRepo: BridgeRepo;
  dataDir: string;
  /** Address external media sockets bind to. */
  bindHost: string;
  /** Networks (CIDRs) external media may send to or connect to. */
  externalMediaNetworks: string[];
  limits: AriLimits;
}

/** Wires the simulated telephony engine and its media, and restores what was live at the last stop. */
export async function createTelephony(opts: TelephonyOptions): Promise<Telephony> {
  const engine = new Engine(opts);
  const restored = engine.restore(opts.repo.live());
  if (restored) opts.log.info({ channels: restored }, 'restored live channels');
  const vars = new Variables(engine);
  const calls = new Calls(engine, vars);
  const pbx = new Pbx(engine, vars, calls);
  calls.pbx = pbx;
  const control = new Control(engine, calls, pbx, vars);
  const clock = new MediaClock(opts.clock);
  const codecs = new Codecs(opts.fixtures.formats);
  const router = new AudioRouter(engine, clock, join(opts.dataDir, 'sim-audio'));
  const farEnd = new FarEnd(engine, calls, control, router, join(opts.dataDir, 'sim-audio'), opts.limits.simAudioMaxSeconds);
  const playbacks = new Playbacks(engine, router);
  const recordings = new Recordings(engine, clock, codecs, opts.recordingRepo, opts.dataDir, opts.limits);
  const bridges = new Bridges(engine, router, opts.bridgeRepo);
  const snoops = new Snoops(engine, calls);
  const external = new ExternalMedia(engine, calls, router, clock, codecs, opts.bindHost, createExternalHostPolicy(opts.externalMediaNetworks));

  const target = (t: string) => {
    const i = t.indexOf(':');
    return { kind: t.slice(0, i), id: t.slice(i + 1) };
  };
  router.providers = {
    playback: (t, tick, out) => playbacks.render(t, tick, out),
    bridge: (ch) => bridges.of(ch),
    whisperers: (ch) => snoops.whisperers(ch),
    external: (ch, tick, out) => external.read(ch, tick, out),
  };
  playbacks.targets = {
    queue: (t) => {
      const { kind, id } = target(t);
      return kind === 'channel' ? engine.find(id)?.rt.queue : bridges.find(id)?.queue;
    },
    recipients: (t) => {
      const { kind, id } = target(t);
      if (kind === 'channel') {
        const ch = engine.find(id);
        return ch ? engine.recipients(ch) : [];
      }
      const b = bridges.find(id);
      return b ? bridges.recipients(b) : engine.apps.subscribedToAll;
    },
    channel: (t) => (target(t).kind === 'channel' ? engine.find(target(t).id) : undefined),
    recording: (name) => recordings.audio(name),
  };
  recordings.targetRecipients = (uri) => {
    const b = bridges.find(target(uri).id);
    return b ? bridges.recipients(b) : engine.apps.subscribedToAll;
  };
  bridges.playbacks = playbacks;
  bridges.endRecordings = (uri) => recordings.endTarget(uri);
  control.beforeContinue = (ch) => bridges.depart(ch);
  control.maxChannelVariables = opts.limits.maxChannelVariables;
  vars.maxGlobals = opts.limits.maxChannelVariables;
  engine.onHangup((ch) => router.forget(ch));
  await external.restore();
  engine.resumeRestored();

  return {
    engine, vars, calls, pbx, control, farEnd, clock, codecs, router, playbacks, recordings, bridges, snoops, external,
    stop() {
      recordings.stopAll();
      external.closeAll();
      clock.stop();
      engine.stop();
    },
  };
}
