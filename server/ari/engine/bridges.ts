import { randomUUID } from 'node:crypto';
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

interface BridgeData {
  id: string;
  name: string;
  /** Type attributes as given (mixing, holding, dtmf_events, …). */
  types: string[];
  holding: boolean;
  created: number;
  channels: string[];
  moh: string | null;
  /** Per-member options from addChannel. */
  options: Record<string, { role: string; mute: boolean; absorbDTMF: boolean }>;
  /** Bridge variables (setBridgeVar), and the names reported in bridgevars. */
  vars?: Record<string, string>;
  reported?: string[];
}

export class Bridge {
  readonly queue = new CommandQueue();
  /** Applications subscribed to the bridge (refcounted: one per member channel in the app, plus explicit ones). */
  readonly subs = new Map<string, number>();
  constructor(public d: BridgeData) {}
}

export interface AddOptions {
  role?: string | undefined;
  mute: boolean;
  absorbDTMF: boolean;
}

const TYPES = ['mixing', 'holding', 'dtmf_events', 'proxy_media', 'video_sfu', 'video_single', 'sdp_label'];

/**
 * Stasis bridges: members hear each other (mixing) or only what the bridge
 * plays (holding). An app is subscribed to a bridge while one of its
 * channels is in it, as Asterisk does.
 */
export class Bridges {
  private readonly byId = new Map<string, Bridge>();
  private readonly mohTones = new Map<string, Tone>();

  constructor(
    private readonly eng: Engine,
    private readonly router: AudioRouter,
    private readonly repo: BridgeRepo,
    private readonly playbacks: Playbacks,
    /** Ends the recordings of a target (`bridge:<id>`) when the bridge goes. */
    private readonly endRecordings: (targetUri: string) => void,
  ) {
    eng.onHangup((ch) => this.depart(ch));
    for (const row of repo.all()) {
      const b = new Bridge(JSON.parse(row.data) as BridgeData);
      b.d.channels = b.d.channels.filter((id) => this.eng.find(id)?.d.bridge === b.d.id);
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
    const mixing = !b.d.holding;
    return {
      id: b.d.id,
      technology: b.d.holding ? 'holding_bridge' : b.d.channels.length > 2 ? 'softmix' : 'simple_bridge',
      bridge_type: mixing ? 'mixing' : 'holding',
      bridge_class: 'stasis',
      creator: 'Stasis',
      name: b.d.name,
      channels: [...b.d.channels],
      creationtime: ariTimestamp(b.d.created),
      ...(b.d.reported?.length ? { bridgevars: Object.fromEntries(b.d.reported.map((n) => [n, b.d.vars?.[n] ?? ''])) } : {}),
    };
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
    const bid = id || randomUUID();
    if (this.byId.has(bid)) throw conflict(`Bridge with id '${bid}' already exists`);
    const types = (type || 'mixing').split(',').map((t) => t.trim()).filter((t) => TYPES.includes(t));
    const holding = types.includes('holding');
    if (holding && types.includes('mixing')) throw badRequest('A bridge cannot be both mixing and holding');
    const b = new Bridge({ id: bid, name: name ?? '', types, holding, created: this.eng.clock.now(), channels: [], moh: null, options: {} });
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
  }

  removeChannels(bridgeId: string, ids: string[] | undefined): void {
    const b = this.get(bridgeId);
    const list = this.members(ids);
    for (const ch of list) if (ch.d.bridge !== b.d.id) throw unprocessable('Channel not in this bridge');
    for (const ch of list) this.depart(ch);
  }

  /** Takes a channel out of its bridge (removeChannel, hangup, continue, another addChannel). */
  depart(ch: Channel): void {
    const b = ch.d.bridge ? this.byId.get(ch.d.bridge) : undefined;
    if (!b) return;
    b.d.channels = b.d.channels.filter((id) => id !== ch.id);
    delete b.d.options[ch.id];
    ch.d.bridge = null;
    this.save(b);
    this.eng.touch(ch);
    this.eng.emit('ChannelLeftBridge', { bridge: this.json(b), channel: this.eng.snapshot(ch) }, this.eventTo(b, ch));
    const app = ch.d.stasis?.app;
    if (app) this.dropSub(b, app);
  }

  destroy(id: string): void {
    const b = this.get(id);
    for (const cid of [...b.d.channels]) {
      const ch = this.eng.find(cid);
      if (ch) this.depart(ch);
    }
    this.playbacks.endTarget(`bridge:${b.d.id}`);
    this.endRecordings(`bridge:${b.d.id}`);
    this.byId.delete(id);
    this.repo.remove(id);
    this.eng.emit('BridgeDestroyed', { bridge: this.json(b) }, this.recipients(b));
  }

  startMoh(id: string, mohClass: string | undefined): void {
    const b = this.get(id);
    b.d.moh = mohClass && this.eng.fixtures.mohClasses.has(mohClass) ? mohClass : 'default';
    this.save(b);
  }

  stopMoh(id: string): void {
    const b = this.get(id);
    if (!b.d.moh) throw conflict('Bridge isn\'t playing music');
    b.d.moh = null;
    this.save(b);
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

  /** The bridge's mix at a tick (for bridge recordings): every unmuted member's inbound plus what the bridge plays. */
  mix(b: Bridge, tick: number): Int16Array {
    const out = new Int16Array(FRAME_SAMPLES);
    for (const id of b.d.channels) {
      const ch = this.eng.find(id);
      if (ch && !b.d.options[id]?.mute) mixInto(out, this.router.inbound(ch, tick));
    }
    const own = new Int16Array(FRAME_SAMPLES);
    this.render(b, tick, own);
    mixInto(out, own);
    return out;
  }

  /** For the audio router: the channel's bridge, its other members and its own audio. */
  of(ch: Channel) {
    const b = ch.d.bridge ? this.byId.get(ch.d.bridge) : undefined;
    if (!b) return undefined;
    const members = b.d.channels.filter((id) => !b.d.options[id]?.mute).map((id) => this.eng.find(id)).filter((c): c is Channel => !!c);
    return { members, holding: b.d.holding, render: (tick: number, out: Int16Array) => this.render(b, tick, out) };
  }
}
