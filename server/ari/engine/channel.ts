import type { ChannelState } from '../../../protocol/ari/models/channel.js';
import type { ModelOf } from '../../../protocol/model.js';
import type { ScriptStep } from '../../../protocol/sim/script.js';
import type { Party } from './callerid.js';
import type { TimerHandle } from '../time/clock.js';
import { CommandQueue } from './command-queue.js';
import type { AriChannel } from './ari-models.js';

export type Direction = 'inbound' | 'outbound';

/** Timer kinds the engine knows how to resume; each is plain data so a restart can re-arm it. */
export type TimerKind =
  | 'dialStart' // begin dialing the far end (deferred so the HTTP answer goes first)
  | 'stasisStart' // channels/create: enter the app (deferred likewise)
  | 'ring' // far end starts ringing
  | 'answer' // far end answers
  | 'reject' // far end rejects (busy, congestion, …)
  | 'dialTimeout' // give up dialing
  | 'pbx' // resume the dialplan after Wait/Playback/…
  | 'dtmf' // next step of an ARI sendDTMF sequence
  | 'farDtmf' // next digit the far end presses
  | 'farHangup' // far end hangs up (after Busy(), redirect, …)
  | 'stasisEnter' // a channel made straight into an app (snoop, external media) enters it
  | 'script'; // the far end's script moves on (far-end-script.ts)

export interface Timer {
  kind: TimerKind;
  /** Due instant on the engine's clock (ms since the epoch), so a restart re-arms it for the same moment. */
  due: number;
  data?: unknown;
}

export interface DialplanLocation {
  context: string;
  exten: string;
  priority: number;
  appName: string;
  appData: string;
}

/** What happens when an outgoing channel is answered. */
export type AfterAnswer =
  | { kind: 'app'; app: string; args: string[] }
  | { kind: 'dialplan'; context: string; exten: string; priority: number }
  | { kind: 'stay' }; // channels/create + dial: already in the app

/** What the far end sends us (the channel's inbound audio), as set through the simulation API. */
export type FarAudio =
  | { kind: 'silence' }
  | { kind: 'tone'; tone: string; since: number }
  | { kind: 'sound'; sound: string; lang: string; loop: boolean; since: number }
  | { kind: 'upload'; file: string; loop: boolean; since: number };

export type Direction2 = 'none' | 'in' | 'out' | 'both';

/** One step of a DTMF sequence sent to the far end: digit start, digit end, or the end of the sequence. */
export type DtmfStep = { at: 'start' | 'end'; digit: string; duration: number; delay: number } | { at: 'done'; delay: number };

/**
 * A control command answered before it runs (it waits behind a playback, a
 * recording or DTMF on the channel's queue). It is plain data in the
 * channel's record until it starts, so a restart still runs it.
 */
export type QueuedCommand =
  | { kind: 'ring'; on: boolean }
  | { kind: 'hold'; on: boolean }
  | { kind: 'mute'; direction: 'in' | 'out' | 'both'; on: boolean }
  | { kind: 'moh'; mohClass: string | null }
  | { kind: 'silence'; on: boolean }
  | { kind: 'dtmf'; steps: DtmfStep[] }
  | { kind: 'move'; app: string; args: string[] }
  | { kind: 'continue'; context: string; exten: string; priority: number }
  | { kind: 'progress' }
  | { kind: 'transferProgress'; status: number; state?: string };

/** Who carries out the transfers a PJSIP far end asks for: the server (core) or the application (ari-only). */
export type TransferHandling = 'core' | 'ari-only';

/** What a REFER left to the application asked for, kept until the application reports a final outcome. */
export interface AriTransferRequest {
  /** The user part of the address asked for. */
  destination?: string;
  /** Attended: the protocol id (Call-ID) of the call to be replaced, and our channel of it. */
  protocolId?: string;
  replaces?: string;
}

/** Redirecting information, as the REDIRECTING function reads and writes it. */
export interface Redirecting {
  from: Party;
  to: Party;
  count: number;
  reason: string;
}

/** A TONE_DETECT detector: what it listens for and what it has heard (plain data, so it survives a restart). */
export interface ToneDetectState {
  freq: number;
  durationMs: number;
  /** Threshold in dB the tone must stand above the rest of the signal. */
  db: number;
  rx: boolean;
  tx: boolean;
  /** Hits that make one match (option n): the jump of g or h, and the end of detection with e. */
  times: number;
  /** Detection ends once a direction reaches `times` hits (option e). */
  end: boolean;
  /** Dialplan location (`[[context,]exten,]priority`) to jump to on a received (g) or sent (h) match. */
  gotoRx: string | null;
  gotoTx: string | null;
  /** Call-progress signals that match at once (options a, b, c); absent in detectors stored before they existed. */
  signals?: { sit: boolean; busy: boolean; dial: boolean };
  hits: { rx: number; tx: number };
}

/** A call StasisBroadcast() offers to applications, from the offer until it times out or the winner's Stasis session ends. */
export interface BroadcastOffer {
  /** The app_filter pattern as written; null offers the call to every application. */
  filter: string | null;
  /** Send CallClaimed when the call is claimed. */
  notifyClaimed: boolean;
  /** Arguments of the winner's StasisStart. */
  args: string[];
  /** The application whose claim won; null while the call is on offer. */
  winner: string | null;
}

/** A script the far end follows (far-end-script.ts): its steps and how far it has got, so a restart goes on from there. */
export interface ScriptRun {
  steps: ScriptStep[];
  position: number;
  state: 'running' | 'waiting' | 'done' | 'ended';
  waitingFor?: string;
  reason?: string;
}

export interface FarDtmf {
  digit: string;
  duration_ms: number;
  offset_ms: number;
}

/** Everything about a channel that survives a restart (stored as JSON in SQLite). */
export interface ChannelData {
  /** Storage key: ids may be reused after a channel ends, rows never are. */
  seq: number;
  id: string;
  name: string;
  protocolId: string;
  /** Endpoint the far end is, as `TECH/resource` (Local: `Local/exten@context`). */
  endpoint: string;
  tech: string;
  direction: Direction;
  state: ChannelState;
  caller: Party;
  connected: Party;
  accountcode: string;
  language: string;
  created: number;
  answered: number | null;
  dialplan: DialplanLocation;
  vars: Record<string, string>;
  /** Variables shown in `channelvars` of every event (report_events). */
  reported: string[];
  /** The app the channel is in; `perCall`: the configured app whose per-call outbound connection was opened for it (`app` is then `<perCall>:<channel name>`). */
  stasis: { app: string; args: string[]; perCall?: string } | null;
  lastApp: string | null;
  /** Per-application subscription counts (refcounted as Asterisk's). */
  subs: Record<string, number>;
  /** Created by channels/create and not dialed yet. */
  dialable: boolean;
  /** What channels/create named after the technology, options included: the dial string its /dial uses. */
  dialResource?: string;
  /** Set while we dial the far end. */
  /** `quiet`: a call placed without Dial() (a transfer's Local channel), so no Dial events. */
  dialing: { dialstring: string; caller: string | null; after: AfterAnswer; quiet?: boolean } | null;
  /** The dialplan is executing on this channel (not in Stasis, not waiting on a peer). */
  pbx: boolean;
  /** Local channel pairing: the other half's id, and which half this is. */
  peer: string | null;
  localHalf: 0 | 1 | 2;
  /** What we send the far end. */
  media: { hold: boolean; ringing: boolean; moh: string | null; silence: boolean; mutedIn: boolean; mutedOut: boolean };
  /** What the far end is doing and has perceived. */
  far: {
    answered: boolean; holding: boolean; talking: boolean; talkSince: number | null; redirectedTo: string | null; audio: FarAudio;
    /** Digits we sent it, the newest FAR_DTMF_KEEP (far-dtmf.ts). */
    dtmf: FarDtmf[];
    /** How many digits we sent it in all (absent in records from before it was counted: the list's length). */
    dtmfTotal?: number;
    /** We indicated progress (early media) to it. */
    progress?: boolean;
    /** SIP status of each transfer progress report it was sent (ARI transfer_progress). */
    transferNotify?: number[];
  };
  /** The bridge this channel is in. */
  bridge: string | null;
  /** The live recording running on this channel. */
  recording: string | null;
  /** A snoop channel: whom it spies on / whispers to. */
  snoop: { target: string; spy: Direction2; whisper: Direction2 } | null;
  /** An external media channel: where its media goes (websocket: host is the connection, INCOMING or a websocket_client name). */
  external: { encapsulation: 'rtp' | 'audiosocket' | 'websocket'; host: string; port: number; format: string; localPort: number | null; data: string } | null;
  flags: { holdIntercept: boolean; talkDetect: boolean };
  formats: string[];
  timers: Timer[];
  /** Commands acknowledged and waiting on the control queue, in order. */
  queued: QueuedCommand[];
  /** Set while the channel waits for a per-call outbound connection to enter `app` (absent otherwise); a restart asks for the connection again. */
  perCallWait?: { app: string; args: string[] };
  /** Set while StasisBroadcast() offers the call (absent otherwise). */
  broadcast?: BroadcastOffer;
  /** CHANNEL(tenantid); absent while never set. */
  tenantid?: string;
  /** REDIRECTING(): where the call was redirected from and to; absent while never set. */
  redirecting?: Redirecting;
  /** SIP status the far end refused the call with, reported as tech_cause. */
  techCause?: number;
  /** Technology causes kept by channel name (HANGUPCAUSE): the latest SIP response and the Asterisk cause it maps to. */
  dialedCauses?: Record<string, { code: string; cause: number }>;
  /** PJSIP_TRANSFER_HANDLING() written on the channel; absent: its endpoint's transfer_handling decides. */
  transferHandling?: TransferHandling;
  /** A transfer its far end asked for that was left to the application (ari-only) and has had no final report yet. */
  ariTransfer?: AriTransferRequest;
  /** The TONE_DETECT detector on the channel, if any. */
  toneDetect?: ToneDetectState | null;
  /** The script its far end follows; absent when it follows none. */
  script?: ScriptRun;
  /** Cause set by a hangup request, reported in ChannelDestroyed. */
  hangupCause: number | null;
  ended: number | null;
}

/** Fills fields added after a record was stored, so records from older versions restore. */
export function normalizeChannelData(d: ChannelData): ChannelData {
  d.far.audio ??= { kind: 'silence' };
  d.bridge ??= null;
  d.recording ??= null;
  d.snoop ??= null;
  d.external ??= null;
  d.queued ??= [];
  return d;
}

/** Live state that is rebuilt after a restart rather than stored. */
export interface ChannelRuntime {
  handles: Map<Timer, TimerHandle>;
  /** Cached ARI snapshot; cleared on every change. */
  snapshot: AriChannel | null;
  queue: CommandQueue;
  /** Resolves the running sendDTMF command when its timers finish. */
  dtmfDone: (() => void) | null;
  hangingUp: boolean;
  dirty: boolean;
}

export class Channel {
  readonly rt: ChannelRuntime = { handles: new Map(), snapshot: null, queue: new CommandQueue(), dtmfDone: null, hangingUp: false, dirty: false };
  constructor(public d: ChannelData) {}

  get id(): string {
    return this.d.id;
  }
  get name(): string {
    return this.d.name;
  }
  get state(): ChannelState {
    return this.d.state;
  }
  /** In a Stasis application right now. */
  get inStasis(): boolean {
    return this.d.stasis !== null;
  }
}
