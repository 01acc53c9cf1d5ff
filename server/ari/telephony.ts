import { join } from 'node:path';
import type { AriLimits } from '../config.js';
import type { AsteriskConfigRepo } from '../db/repos/asterisk-config-repo.js';
import type { ChannelRepo } from '../db/repos/channel-repo.js';
import type { HeardRepo } from '../db/repos/heard-repo.js';
import type { DeviceStateRepo } from '../db/repos/device-state-repo.js';
import type { EndpointRepo } from '../db/repos/endpoint-repo.js';
import type { MailboxRepo } from '../db/repos/mailbox-repo.js';
import type { BridgeRepo, RecordingRepo } from '../db/repos/recording-repo.js';
import { MediaClock } from './media/media-clock.js';
import { ClockControl } from './time/clock-control.js';
import { VIRTUAL_NOW_KEY } from './time/sim-time.js';
import { nextTurn } from './time/virtual-clock.js';
import { createExternalHostPolicy } from './media/external-host-policy.js';
import { Codecs } from './media/codec.js';
import { AudioRouter } from './engine/audio.js';
import { BridgeMedia } from './engine/bridge-media.js';
import { type Bridge, Bridges } from './engine/bridges.js';
import { BridgeVariables } from './engine/bridge-variables.js';
import { Broadcasts } from './engine/broadcasts.js';
import { Calls } from './engine/calls.js';
import { ChannelFactory } from './engine/channel-factory.js';
import { Control } from './engine/control.js';
import { DeviceStates } from './engine/device-states.js';
import { EndpointMessages } from './engine/endpoint-messages.js';
import { AriTransfers } from './engine/ari-transfers.js';
import { DynamicConfig } from './engine/dynamic-config.js';
import { Engine, type EngineOptions } from './engine/engine.js';
import { EventDelays } from './engine/event-delays.js';
import { ExternalMedia } from './engine/external-media.js';
import { Faults } from './engine/faults.js';
import { FarEnd } from './engine/far-end.js';
import { FarEndScripts } from './engine/far-end-script.js';
import { EndpointScripts } from './engine/endpoint-scripts.js';
import { LogChannels } from './engine/log-channels.js';
import { Mailboxes } from './engine/mailboxes.js';
import { Modules } from './engine/modules.js';
import { Pbx } from './engine/pbx.js';
import { Playbacks } from './engine/playbacks.js';
import { HeardAudio } from './engine/heard-audio.js';
import { HeardLists } from './engine/heard-lists.js';
import { HeardLog } from './engine/heard-log.js';
import { Recordings } from './engine/recordings.js';
import { Registrations } from './engine/registrations.js';
import { Snoops } from './engine/snoops.js';
import { Transfers } from './engine/transfers.js';
import { DialplanTransfers } from './engine/dialplan-transfers.js';
import { ToneDetectors } from './engine/tone-detect.js';
import { UserEvents } from './engine/user-events.js';
import { Variables } from './engine/variables.js';
import { WebSocketMedia } from './engine/websocket-media.js';
import type { MediaClientConfig } from './media/media-clients-setting.js';
import { createMediaConnector } from './media-ws-client.js';

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
  heard: HeardLog;
  heardAudio: HeardAudio;
  recordings: Recordings;
  bridges: Bridges;
  bridgeMedia: BridgeMedia;
  transfers: Transfers;
  bridgeVars: BridgeVariables<Bridge>;
  snoops: Snoops;
  external: ExternalMedia;
  websocketMedia: WebSocketMedia;
  devices: DeviceStates;
  mailboxes: Mailboxes;
  userEvents: UserEvents;
  broadcasts: Broadcasts;
  registrations: Registrations;
  endpointMessages: EndpointMessages;
  modules: Modules;
  logChannels: LogChannels;
  dynamicConfig: DynamicConfig;
  /** The simulation API's hold on the clock: its state, and advancing a virtual one. */
  clockControl: ClockControl;
  /** Faults injected through the simulation API (in memory only). */
  faults: Faults;
  /** Scripts far ends follow: the runner, and the scripts set for endpoints. */
  farScripts: FarEndScripts;
  endpointScripts: EndpointScripts;
  /** Stops media (recordings are completed and kept) and the engine. */
  stop(): void;
}

export interface TelephonyOptions extends EngineOptions {
  repo: ChannelRepo;
  heardRepo: HeardRepo;
  recordingRepo: RecordingRepo;
  bridgeRepo: BridgeRepo;
  deviceStateRepo: DeviceStateRepo;
  mailboxRepo: MailboxRepo;
  endpointRepo: EndpointRepo;
  asteriskConfigRepo: AsteriskConfigRepo;
  dataDir: string;
  /** Address external media sockets bind to. */
  bindHost: string;
  /** Networks (CIDRs) external media may send to or connect to. */
  externalMediaNetworks: string[];
  /** Media WebSockets: client connections, whether they may reach local networks (WEBSOCKET_CLIENT_ALLOW_LOCAL_NETWORKS), the default control format. */
  mediaWebsocket: { clients: ReadonlyMap<string, MediaClientConfig>; allowLocalNetworks: boolean; controlFormat: 'plain-text' | 'json' };
  limits: AriLimits;
}

/** Most event-loop turns an advance of the virtual clock waits, after a timer, for the work it started to go quiet. */
const SETTLE_TURNS = 16;
/** Timers of an advance that left nothing behind, run one after another before a turn is let in anyway. */
const QUIET_TURN_EVERY = 50;

/** Wires the simulated telephony engine and its media, and restores what was live at the last stop. */
export async function createTelephony(opts: TelephonyOptions): Promise<Telephony> {
  // Parts are built in the order their hooks must run (hangup hooks run in registration order).
  // A part that needs one built after it gets a closure that reaches it once wiring is done.
  const delays = new EventDelays(opts.clock);
  const engine: Engine = new Engine(opts, { readForSnapshot: (ch, name) => vars.readForSnapshot(ch, name) }, delays);
  const restored = engine.restore(opts.repo.live());
  if (restored) opts.log.info({ channels: restored }, 'restored live channels');
  const modules = new Modules(engine, opts.asteriskConfigRepo);
  const logChannels = new LogChannels(opts.asteriskConfigRepo, opts.limits.maxStoredObjects);
  // Endpoints made through ARI join the endpoint directory before anything counts its endpoints.
  const dynamicConfig = new DynamicConfig(opts.fixtures, opts.asteriskConfigRepo, modules, { reconfigure: (key, change) => registrations.reconfigure(key, change) }, opts.limits.maxStoredObjects);
  // Registrations make endpoints online or offline; device states follow them, and count the restored channels from the start.
  const registrations: Registrations = new Registrations(engine, opts.endpointRepo, (e) => devices.endpointChanged(e.key), opts.limits.simFarEndKeep);
  const reachability = registrations.state.bind(registrations);
  const faults = new Faults({ apps: engine.apps, delays, endpoint: (name) => engine.fixtures.endpoints.get(name.toLowerCase()), ids: engine.ids, max: opts.limits.maxStoredObjects });
  const devices = new DeviceStates(engine, opts.deviceStateRepo, opts.meta, opts.limits.maxStoredObjects, reachability);
  const mailboxes = new Mailboxes(opts.mailboxRepo, opts.limits.maxStoredObjects);
  const vars: Variables = new Variables(engine, opts.limits.maxChannelVariables, (ch) => tones.sync(ch));
  const factory = new ChannelFactory(engine, vars, modules, {
    owns: (tech) => websocketMedia.owns(tech),
    check: (resource) => websocketMedia.check(resource),
    allocate: (resource, formats, build) => websocketMedia.allocate(resource, formats, build),
  });
  const calls: Calls = new Calls(engine, vars, {
    start: (ch, context, exten, priority) => pbx.start(ch, context, exten, priority),
    startSoon: (ch, context, exten, priority) => pbx.startSoon(ch, context, exten, priority),
  }, factory, { dial: (ch) => websocketMedia.dial(ch) }, (f) => (faults.unreachable(f.key) ? 'offline' : reachability(f)), (f) => faults.unreachable(f.key), (ch) => farScripts.dialed(ch));
  const broadcasts: Broadcasts = new Broadcasts(engine, { claimed: (ch, app, args) => pbx.claimed(ch, app, args) });
  const dialplanTransfers = new DialplanTransfers(engine, { fromDialplan: (ch, exten, context) => transfers.fromDialplan(ch, exten, context) });
  const pbx: Pbx = new Pbx(engine, vars, calls, broadcasts, dialplanTransfers, {
    play: (ch, uris) => playbacks.sound(`channel:${ch.id}`, uris, ch.d.language),
    end: (ch) => playbacks.endSound(`channel:${ch.id}`),
  });
  const control: Control = new Control(engine, calls, pbx, vars, (ch) => bridges.depart(ch), opts.limits.maxChannelVariables, {
    notified: (ch, status) => ariTransfers.notified(ch, status),
    reported: (ch, state) => ariTransfers.reported(ch, state),
  });
  const clock = new MediaClock(opts.clock);
  const codecs = new Codecs(opts.fixtures.formats);
  const router: AudioRouter = new AudioRouter(engine, clock, join(opts.dataDir, 'sim-audio'), {
    playback: (t, tick, out) => playbacks.render(t, tick, out),
    bridge: (ch) => bridges.of(ch),
    whisperers: (ch) => snoops.whisperers(ch),
    external: (ch, tick, out) => external.read(ch, tick, out),
    lossPercent: (ch) => faults.lossPercent(ch.d.endpoint),
  });
  const tones: ToneDetectors = new ToneDetectors(engine, router, clock, (ch, location) => control.asyncGoto(ch, location));
  const farEnd: FarEnd = new FarEnd(engine, calls, control, router, join(opts.dataDir, 'sim-audio'), opts.limits.simAudioMaxSeconds);
  const target = (t: string) => {
    const i = t.indexOf(':');
    return { kind: t.slice(0, i), id: t.slice(i + 1) };
  };
  const heardAudio = new HeardAudio(clock, opts.clock, (ch, tick) => router.toFarEnd(ch, tick), (ch) => heard.audible(ch), opts.limits.simHeardMaxSeconds);
  const heard: HeardLog = new HeardLog(engine, new HeardLists(opts.heardRepo, (w) => engine.deferWrite(w)), heardAudio, (id) => bridges.find(id)?.d.channels ?? [], (id) => bridges.find(id)?.d.moh ?? null, (ch, item) => farScripts.heardEnded(ch, item));
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
  }, heard);
  const recordings: Recordings = new Recordings(engine, clock, codecs, opts.recordingRepo, opts.dataDir, opts.limits, (uri) => {
    const b = bridges.find(target(uri).id);
    return b ? bridges.recipients(b) : engine.apps.subscribedToAll;
  });
  const bridges: Bridges = new Bridges(engine, router, opts.bridgeRepo, playbacks, (uri) => recordings.endTarget(uri));
  const bridgeMedia = new BridgeMedia(bridges, playbacks, recordings, codecs);
  const ariTransfers: AriTransfers = new AriTransfers(engine, bridges, opts.limits.simFarEndKeep);
  const transfers = new Transfers(engine, calls, factory, pbx, bridges, vars, ariTransfers);
  const bridgeVars = new BridgeVariables(bridges, opts.limits.maxChannelVariables);
  const snoops: Snoops = new Snoops(engine, calls);
  const endpointScripts = new EndpointScripts(engine, opts.endpointRepo);
  const farScripts: FarEndScripts = new FarEndScripts(engine, farEnd, (ch) => heard.quiet(ch), endpointScripts, {
    exists: (name) => recordings.audio(name) !== undefined,
    audio: (name) => recordings.audio(name),
  });
  const userEvents = new UserEvents(engine, bridges, (e) => registrations.model(e));
  const endpointMessages = new EndpointMessages(engine, registrations, opts.endpointRepo, opts.limits.simFarEndKeep);
  const hostPolicy = createExternalHostPolicy(opts.externalMediaNetworks);
  const ws = opts.mediaWebsocket;
  const websocketMedia: WebSocketMedia = new WebSocketMedia(engine, calls, router, clock, codecs, createMediaConnector(ws.clients, { hosts: hostPolicy, allowLocalNetworks: ws.allowLocalNetworks }), ws.controlFormat);
  const external: ExternalMedia = new ExternalMedia(engine, calls, router, clock, codecs, opts.bindHost, hostPolicy, websocketMedia);
  engine.onHangup((ch) => router.forget(ch));
  let quietTimers = 0;
  const clockControl = new ClockControl({
    clock: opts.clock,
    // Between two timers of an advance: deferred starts run, frames handed out in slices finish, and the commit
    // delivers. A turn that committed anything may have deferred more work to the next, so quiet is a turn without
    // one; other clients' requests commit too, so a busy server is given a bounded number of turns, not forever.
    // Most timers of a long advance are media frames with nothing to announce: one that left no commit queued and
    // no frames still being handed out needs no turn of its own (a turn costs more than the frame). A turn is still
    // taken after every QUIET_TURN_EVERY such timers, so other clients' requests get in; counting timers rather
    // than wall time keeps where those turns fall the same from run to run.
    settle: async () => {
      if (!engine.commitPending && !clock.busy && ++quietTimers < QUIET_TURN_EVERY) return;
      quietTimers = 0;
      for (let turn = 1; ; turn++) {
        const flushes = engine.flushes;
        await nextTurn();
        await engine.commit();
        if (!clock.busy && (engine.flushes === flushes || turn >= SETTLE_TURNS)) return;
      }
    },
    remember: (now) => engine.deferWrite(() => opts.meta.set(VIRTUAL_NOW_KEY, String(now))),
  });
  await external.restore();
  engine.resumeRestored();

  return {
    engine, vars, calls, pbx, control, farEnd, clock, codecs, router, playbacks, recordings, bridges, bridgeMedia, transfers, bridgeVars, snoops, external, websocketMedia, devices, mailboxes, userEvents, broadcasts, registrations, endpointMessages, modules, logChannels, dynamicConfig, clockControl, faults, heard, heardAudio, farScripts, endpointScripts,
    stop() {
      registrations.stop();
      recordings.stopAll();
      external.closeAll();
      clock.stop();
      engine.stop();
    },
  };
}
