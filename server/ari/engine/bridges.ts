import type { BridgeRepo } from '../../db/repos/recording-repo.js';
import { badRequest, conflict, notFound, unprocessable } from '../../errors.js';
import { ariTimestamp } from '../../util/timestamp.js';
import { FRAME_SAMPLES, mixInto } from '../media/pcm.js';
import { Tone } from '../media/tones.js';
import type { AudioRouter } from './audio.js';
import type { Channel } from './channel.js';
import { CommandQueue } from './command-queue.js';
import type { Engine } from './engine.js';
import type { Playbacks } from './playbacks.js';
import type { AriBridge } from './ari-models.js';
import { parseBridgeType, type VideoMode } from './bridge-types.js';
import { exchangeConnectedLines } from './connected-line.js';
import { pushFarDtmf } from './far-dtmf.js';

interface BridgeData {
  id: string;
  name: string;
  /** Type attributes as given (mixing, holding, dtmf_events, …). */
  types: string[];
  holding: boolean;
  /** Absent in bridges stored before video modes were kept: talker. */
  videoMode?: VideoMode;
  /** The member chosen with setVideoSource (single mode only). */
  videoSource?: string | null;
  created: number;
  channels: string[];
  moh: string | null;
  /** Per-member options from addChannel. */
  options: Record<string, { role: string; mute: boolean; absorbDTMF: boolean }>;
  /** Bridge variables (setBridgeVar), and the names reported in bridgevars. */
  vars?: Record<string, string>;
  reported?: string[];
}

/** A render that plays nothing. */
const NOTHING = (): void => {};

export class Bridge {
  readonly queue = new CommandQueue();
  /** Applications subscribed to the bridge (refcounted: one per member channel in the app, plus explicit ones). */
  readonly subs = new Map<string, number>();
  /** What the bridge itself plays into a frame, for the audio router (made once: it is asked for every frame). */
  render: ((tick: number, out: Int16Array) => void) | null = null;
  constructor(public d: BridgeData) {}
}

export interface AddOptions {
  role?: string | undefined;
  mute: boolean;
  absorbDTMF: boolean;
}

/**
 * Stasis bridges: members hear each other (mixing) or only what the bridge
 * plays (holding). An app is subscribed to a bridge while one of its
 * channels is in it, as Asterisk does.
 */
export class Bridges {
  private readonly byId = new Map<string, Bridge>();
  private readonly mohTones = new Map<string, Tone>();
  /** Sounds played once into a bridge (a bridge recording's beep), by bridge id. */
  private readonly overlays = new Map<string, { samples: Int16Array; since: number }>();
  private readonly mixFrame = new Int16Array(FRAME_SAMPLES); // mix()'s answer and the bridge's own audio (see mix)
  private readonly ownFrame = new Int16Array(FRAME_SAMPLES);

  constructor(
    private readonly eng: Engine,
    private readonly router: AudioRouter,
    private readonly repo: BridgeRepo,
    private readonly playbacks: Playbacks,
    /** Ends the recordings of a target (`bridge:<id>`) when the bridge goes. */
    private readonly endRecordings: (targetUri: string) => void,
  ) {
    eng.onHangup((ch) => this.depart(ch));
    eng.onDtmf((ch, digit) => this.passDtmf(ch, digit));
    for (const row of repo.all()) {
      const b = new Bridge(JSON.parse(row.data) as BridgeData);
      b.d.channels = b.d.channels.filter((id) => this.eng.find(id)?.d.bridge === b.d.id);
      if (b.d.videoSource && !b.d.channels.includes(b.d.videoSource)) b.d.videoSource = null;
      for (const id of b.d.channels) {
        const app = this.eng.find(id)!.d.stasis?.app;
        if (app) this.addSub(b, app);
      }
      this.byId.set(b.d.id, b);
    }
    // Channels that claim a bridge that no longer exists are free again.
    for (const ch of this.eng.all()) {
      if (ch.d.bridge && !this.byId.has(ch.d.bridge)) {
        ch.d.bridge = null;
        this.eng.touch(ch);
      }
    }
  }

  /** Writes the bridge's record (before the answer or event that announces a change). */
  save(b: Bridge): void {
    this.repo.save(b.d.id, JSON.stringify(b.d));
  }

  /** The bridge as an ARI Bridge. */
  json(b: Bridge): AriBridge {
    const mode = b.d.videoMode ?? 'talker';
    // An SFU bridge needs the multi-party mixer whatever its size.
    const technology = b.d.holding ? 'holding_bridge' : b.d.channels.length > 2 || mode === 'sfu' ? 'softmix' : 'simple_bridge';
    return {
      id: b.d.id,
      technology,
      bridge_type: b.d.holding ? 'holding' : 'mixing',
      bridge_class: 'stasis',
      creator: 'Stasis',
      name: b.d.name,
      channels: [...b.d.channels],
      video_mode: mode,
      ...(b.d.videoSource ? { video_source_id: b.d.videoSource } : {}),
      creationtime: ariTimestamp(b.d.created),
      ...(b.d.reported?.length ? { bridgevars: Object.fromEntries(b.d.reported.map((n) => [n, b.d.vars?.[n] ?? ''])) } : {}),
    };
  }

  /** The bridge a channel is in. */
  bridgeOf(ch: Channel): Bridge | undefined {
    return ch.d.bridge ? this.byId.get(ch.d.bridge) : undefined;
  }

  all(): Bridge[] {
    return [...this.byId.values()];
  }

  get(id: string): Bridge {
    const b = this.byId.get(id);
    if (!b) throw notFound('Bridge not found');
    return b;
  }

  find(id: string): Bridge | undefined {
    return this.byId.get(id);
  }

  /** Applications that hear about a bridge: its subscribers and every subscribeAll app. */
  recipients(b: Bridge): Set<string> {
    const to = new Set<string>(this.eng.apps.subscribedToAll);
    for (const [app, n] of b.subs) if (n > 0) to.add(app);
    return to;
  }

  addSub(b: Bridge, app: string, n = 1): void {
    b.subs.set(app, (b.subs.get(app) ?? 0) + n);
  }

  dropSub(b: Bridge, app: string): void {
    const left = (b.subs.get(app) ?? 0) - 1;
    if (left > 0) b.subs.set(app, left);
    else b.subs.delete(app);
  }

  create(id: string | undefined, type: string | undefined, name: string | undefined): Bridge {
    const bid = id || this.eng.ids.uuid();
    if (this.byId.has(bid)) throw conflict(`Bridge with id '${bid}' already exists`);
    const { types, holding, videoMode } = parseBridgeType(type);
    const b = new Bridge({ id: bid, name: name ?? '', types, holding, videoMode, videoSource: null, created: this.eng.clock.now(), channels: [], moh: null, options: {} });
    this.byId.set(bid, b);
    this.save(b);
    this.eng.emit('BridgeCreated', { bridge: this.json(b) }, this.recipients(b));
    return b;
  }

  private eventTo(b: Bridge, ch: Channel): Set<string> {
    const to = this.recipients(b);
    for (const app of this.eng.recipients(ch)) to.add(app);
    return to;
  }

  /** Checks a list of channels as addChannel/removeChannel do; returns them. */
  private members(ids: string[] | undefined): Channel[] {
    const list = (ids ?? []).filter(Boolean);
    if (!list.length) throw badRequest('Missing parameter channel');
    return list.map((id) => {
      const ch = this.eng.find(id);
      if (!ch) throw badRequest('Channel not found');
      if (!ch.inStasis) throw unprocessable('Channel not in Stasis application');
      return ch;
    });
  }

  addChannels(bridgeId: string, ids: string[] | undefined, opts: AddOptions): void {
    const b = this.get(bridgeId);
    const list = this.members(ids);
    for (const ch of list) {
      // A recording keeps its channel out of bridges; channels before it in the list stay added.
      if (ch.d.recording) throw conflict(`Channel ${ch.id} currently recording`);
      this.join(b, ch, opts);
    }
  }

  private join(b: Bridge, ch: Channel, opts: AddOptions): void {
    if (ch.d.bridge) this.depart(ch);
    b.d.channels.push(ch.id);
    b.d.options[ch.id] = { role: opts.role ?? (b.d.holding ? 'holding_participant' : ''), mute: opts.mute, absorbDTMF: opts.absorbDTMF };
    ch.d.bridge = b.d.id;
    const app = ch.d.stasis?.app;
    if (app) this.addSub(b, app);
    this.save(b);
    this.eng.touch(ch);
    this.eng.emit('ChannelEnteredBridge', { bridge: this.json(b), channel: this.eng.snapshot(ch) }, this.eventTo(b, ch));
    this.reconfigured(b);
  }

  /** After a member came or went: two members alone in a two-party mix learn each other's caller ID. */
  private reconfigured(b: Bridge): void {
    if (b.d.holding || b.d.videoMode === 'sfu' || b.d.channels.length !== 2) return;
    const [first, second] = b.d.channels.map((id) => this.eng.find(id));
    if (first && second) exchangeConnectedLines(this.eng, first, second);
  }

  removeChannels(bridgeId: string, ids: string[] | undefined): void {
    const b = this.get(bridgeId);
    const list = this.members(ids);
    for (const ch of list) if (ch.d.bridge !== b.d.id) throw unprocessable('Channel not in this bridge');
    for (const ch of list) this.depart(ch);
  }

  /** Takes a channel out of its bridge (removeChannel, hangup, continue, another addChannel); `reconfigure` false inside a swap. */
  depart(ch: Channel, reconfigure = true): void {
    const b = ch.d.bridge ? this.byId.get(ch.d.bridge) : undefined;
    if (!b) return;
    b.d.channels = b.d.channels.filter((id) => id !== ch.id);
    delete b.d.options[ch.id];
    ch.d.bridge = null;
    this.save(b);
    this.eng.touch(ch);
    // A source that leaves is dropped; the bridge's new state is announced before the leave, as Asterisk publishes them.
    if (b.d.videoSource === ch.id) this.changeVideoSource(b, b.d.videoMode ?? 'single', null);
    this.eng.emit('ChannelLeftBridge', { bridge: this.json(b), channel: this.eng.snapshot(ch) }, this.eventTo(b, ch));
    const app = ch.d.stasis?.app;
    if (app) this.dropSub(b, app);
    if (reconfigure) this.reconfigured(b);
  }

  destroy(id: string): void {
    const b = this.get(id);
    for (const cid of [...b.d.channels]) {
      const ch = this.eng.find(cid);
      // A bridge being torn down updates nobody's connected line.
      if (ch) this.depart(ch, false);
    }
    this.playbacks.endTarget(`bridge:${b.d.id}`);
    this.endRecordings(`bridge:${b.d.id}`);
    this.overlays.delete(id);
    this.byId.delete(id);
    this.repo.remove(id);
    this.eng.emit('BridgeDestroyed', { bridge: this.json(b) }, this.recipients(b));
  }

  /** setVideoSource: the member becomes the single video source (Asterisk checks the bridge, then the channel, then membership). */
  setVideoSource(bridgeId: string, channelId: string): void {
    const b = this.get(bridgeId);
    const [ch] = this.members([channelId]);
    if (ch!.d.bridge !== b.d.id) throw unprocessable('Channel not in this bridge');
    this.changeVideoSource(b, 'single', ch!.id);
  }

  /** clearVideoSource: back to following the talker, without a chosen source. */
  clearVideoSource(bridgeId: string): void {
    const b = this.get(bridgeId);
    this.changeVideoSource(b, 'talker', null);
  }

  /** Sets the video mode and source; BridgeVideoSourceChanged only when the source itself changed, as Asterisk compares. */
  private changeVideoSource(b: Bridge, mode: VideoMode, source: string | null): void {
    const old = b.d.videoSource ?? null;
    b.d.videoMode = mode;
    b.d.videoSource = source;
    this.save(b);
    if (old === source) return;
    this.eng.emit('BridgeVideoSourceChanged', { bridge: this.json(b), ...(old ? { old_video_source_id: old } : {}) }, this.recipients(b));
  }

  /**
   * Puts `incoming` in `outgoing`'s place (a transfer's Local channel):
   * the old member leaves first, then the new one enters, as Asterisk's swap.
   */
  swap(b: Bridge, incoming: Channel, outgoing: Channel): void {
    const opts = b.d.options[outgoing.id];
    this.depart(outgoing, false);
    this.join(b, incoming, { role: opts?.role, mute: false, absorbDTMF: false });
  }

  /** A digit a member received goes on to the other members' far ends (mixing bridges), unless the member absorbs DTMF. */
  private passDtmf(ch: Channel, digit: string): void {
    const b = this.bridgeOf(ch);
    if (!b || b.d.holding || b.d.options[ch.id]?.absorbDTMF) return;
    for (const id of b.d.channels) {
      const other = id === ch.id ? undefined : this.eng.find(id);
      if (!other) continue;
      pushFarDtmf(other.d.far, { digit, duration_ms: 100, offset_ms: Math.round(this.eng.clock.simSince(other.d.created)) });
      this.eng.touch(other);
    }
  }

  startMoh(id: string, mohClass: string | undefined): void {
    const b = this.get(id);
    b.d.moh = mohClass && this.eng.fixtures.mohClasses.has(mohClass) ? mohClass : 'default';
    this.save(b);
    this.membersHearOther(b);
  }

  stopMoh(id: string): void {
    const b = this.get(id);
    if (!b.d.moh) throw conflict('Bridge isn\'t playing music');
    b.d.moh = null;
    this.save(b);
    this.membersHearOther(b);
  }

  /** What the members hear changed (the bridge's music): their records and what their far ends heard follow. */
  private membersHearOther(b: Bridge): void {
    for (const id of b.d.channels) {
      const ch = this.eng.find(id);
      if (ch) this.eng.touch(ch);
    }
  }

  /** What the bridge itself plays to its members: its playback, else its music on hold. */
  render(b: Bridge, tick: number, out: Int16Array): void {
    if (this.playbacks.render(`bridge:${b.d.id}`, tick, out)) return;
    if (b.d.moh) {
      const cls = this.eng.fixtures.mohClasses.get(b.d.moh)!;
      let tone = this.mohTones.get(cls.tones);
      if (!tone) {
        tone = Tone.parse(cls.tones);
        this.mohTones.set(cls.tones, tone);
      }
      tone.render(tick * FRAME_SAMPLES, out.length, out);
    }
  }

  /**
   * Plays `samples` once into the bridge, starting now: every member hears
   * it, as they hear what a bridge recording's Recorder channel sends (its
   * beep); the bridge's own recordings do not hold it.
   */
  overlay(b: Bridge, samples: Int16Array): void {
    this.overlays.set(b.d.id, { samples, since: this.eng.clock.now() });
  }

  private renderOverlay(b: Bridge, tick: number, out: Int16Array): void {
    const o = this.overlays.get(b.d.id);
    if (!o) return;
    const pos = this.router.samplesSince(o.since, tick);
    if (pos >= o.samples.length) {
      this.overlays.delete(b.d.id);
      return;
    }
    const part = new Int16Array(out.length);
    for (let i = Math.max(0, -pos); i < out.length && pos + i < o.samples.length; i++) part[i] = o.samples[pos + i]!;
    mixInto(out, part);
  }

  /** The bridge's mix at a tick (for bridge recordings): every unmuted member's inbound plus what the bridge plays. */
  mix(b: Bridge, tick: number): Int16Array {
    // The answer is only read before the next call (a recording encodes it at once), so two frames serve every bridge.
    const out = this.mixFrame.fill(0);
    // A holding bridge carries only its announcers (and what it plays), as its participants hear it.
    for (const ch of this.voices(b)) mixInto(out, this.router.inbound(ch, tick));
    const own = this.ownFrame.fill(0);
    this.render(b, tick, own);
    mixInto(out, own);
    return out;
  }

  /** For the audio router: the channel's bridge, its other members and its own audio. */
  of(ch: Channel) {
    const b = ch.d.bridge ? this.byId.get(ch.d.bridge) : undefined;
    if (!b) return undefined;
    // In a holding bridge an announcer hears nothing; participants hear the announcers and what the bridge plays.
    if (b.d.holding && this.isAnnouncer(b, ch.id)) return { members: [], render: NOTHING };
    b.render ??= (tick, out) => {
      this.render(b, tick, out);
      this.renderOverlay(b, tick, out);
    };
    return { members: this.voices(b, ch), render: b.render };
  }

  private isAnnouncer(b: Bridge, id: string): boolean {
    return b.d.options[id]?.role === 'announcer';
  }

  /** Members whose audio the bridge carries (but `except`): every unmuted member, or in a holding bridge its unmuted announcers. */
  private voices(b: Bridge, except?: Channel): Channel[] {
    const out: Channel[] = [];
    for (const id of b.d.channels) {
      if (b.d.options[id]?.mute || (b.d.holding && !this.isAnnouncer(b, id))) continue;
      const c = this.eng.find(id);
      if (c && c !== except) out.push(c);
    }
    return out;
  }
}
