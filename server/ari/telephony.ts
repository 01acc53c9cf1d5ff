import { join } from 'node:path';
import type { AriLimits } from '../config.js';
import type { ChannelRepo } from '../db/repos/channel-repo.js';
import type { DeviceStateRepo } from '../db/repos/device-state-repo.js';
import type { MailboxRepo } from '../db/repos/mailbox-repo.js';
import type { BridgeRepo, RecordingRepo } from '../db/repos/recording-repo.js';
import { MediaClock } from './media/media-clock.js';
import { createExternalHostPolicy } from './media/external-host-policy.js';
import { Codecs } from './media/codec.js';
import { AudioRouter } from './engine/audio.js';
import { type Bridge, Bridges } from './engine/bridges.js';
import { BridgeVariables } from './engine/bridge-variables.js';
import { Calls } from './engine/calls.js';
import { ChannelFactory } from './engine/channel-factory.js';
import { Control } from './engine/control.js';
import { DeviceStates } from './engine/device-states.js';
import { Engine, type EngineOptions } from './engine/engine.js';
import { ExternalMedia } from './engine/external-media.js';
import { FarEnd } from './engine/far-end.js';
import { Mailboxes } from './engine/mailboxes.js';
import { Pbx } from './engine/pbx.js';
import { Playbacks } from './engine/playbacks.js';
import { Recordings } from './engine/recordings.js';
import { Snoops } from './engine/snoops.js';
import { ToneDetectors } from './engine/tone-detect.js';
import { UserEvents } from './engine/user-events.js';
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
  bridgeVars: BridgeVariables<Bridge>;
  snoops: Snoops;
  external: ExternalMedia;
  devices: DeviceStates;
  mailboxes: Mailboxes;
  userEvents: UserEvents;
  /** Stops media (recordings are completed and kept) and the engine. */
  stop(): void;
}

export interface TelephonyOptions extends EngineOptions {
  repo: ChannelRepo;
  recordingRepo: RecordingRepo;
  bridgeRepo: BridgeRepo;
  deviceStateRepo: DeviceStateRepo;
  mailboxRepo: MailboxRepo;
  dataDir: string;
  /** Address external media sockets bind to. */
  bindHost: string;
  /** Networks (CIDRs) external media may send to or connect to. */
  externalMediaNetworks: string[];
  limits: AriLimits;
}

/** Wires the simulated telephony engine and its media, and restores what was live at the last stop. */
export async function createTelephony(opts: TelephonyOptions): Promise<Telephony> {
  // Parts are built in the order their hooks must run (hangup hooks run in registration order).
  // A part that needs one built after it gets a closure that reaches it once wiring is done.
  const engine: Engine = new Engine(opts, { readForSnapshot: (ch, name) => vars.readForSnapshot(ch, name) });
  const restored = engine.restore(opts.repo.live());
  if (restored) opts.log.info({ channels: restored }, 'restored live channels');
  // Device states count the restored channels from the start.
  const devices = new DeviceStates(engine, opts.deviceStateRepo, opts.meta);
  const mailboxes = new Mailboxes(opts.mailboxRepo);
  const vars: Variables = new Variables(engine, opts.limits.maxChannelVariables, (ch) => tones.sync(ch));
  const calls: Calls = new Calls(engine, vars, {
    start: (ch, context, exten, priority) => pbx.start(ch, context, exten, priority),
    startSoon: (ch, context, exten, priority) => pbx.startSoon(ch, context, exten, priority),
  }, new ChannelFactory(engine, vars));
  const pbx: Pbx = new Pbx(engine, vars, calls);
  const control: Control = new Control(engine, calls, pbx, vars, (ch) => bridges.depart(ch), opts.limits.maxChannelVariables);
  const clock = new MediaClock(opts.clock);
  const codecs = new Codecs(opts.fixtures.formats);
  const router: AudioRouter = new AudioRouter(engine, clock, join(opts.dataDir, 'sim-audio'), {
    playback: (t, tick, out) => playbacks.render(t, tick, out),
    bridge: (ch) => bridges.of(ch),
    whisperers: (ch) => snoops.whisperers(ch),
    external: (ch, tick, out) => external.read(ch, tick, out),
  });
  const tones: ToneDetectors = new ToneDetectors(engine, router, clock, (ch, location) => control.asyncGoto(ch, location));
  const farEnd: FarEnd = new FarEnd(engine, calls, control, router, join(opts.dataDir, 'sim-audio'), opts.limits.simAudioMaxSeconds);
  const target = (t: string) => {
    const i = t.indexOf(':');
    return { kind: t.slice(0, i), id: t.slice(i + 1) };
  };
  const playbacks: Playbacks = new Playbacks(engine, router, {
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
  });
  const recordings: Recordings = new Recordings(engine, clock, codecs, opts.recordingRepo, opts.dataDir, opts.limits, (uri) => {
    const b = bridges.find(target(uri).id);
    return b ? bridges.recipients(b) : engine.apps.subscribedToAll;
  });
  const bridges: Bridges = new Bridges(engine, router, opts.bridgeRepo, playbacks, (uri) => recordings.endTarget(uri));
  const bridgeVars = new BridgeVariables(bridges, opts.limits.maxChannelVariables);
  const snoops: Snoops = new Snoops(engine, calls);
  const userEvents = new UserEvents(engine, bridges);
  const external: ExternalMedia = new ExternalMedia(engine, calls, router, clock, codecs, opts.bindHost, createExternalHostPolicy(opts.externalMediaNetworks));
  engine.onHangup((ch) => router.forget(ch));
  await external.restore();
  engine.resumeRestored();

  return {
    engine, vars, calls, pbx, control, farEnd, clock, codecs, router, playbacks, recordings, bridges, bridgeVars, snoops, external, devices, mailboxes, userEvents,
    stop() {
      recordings.stopAll();
      external.closeAll();
      clock.stop();
      engine.stop();
    },
  };
}
