import type { ModelOf } from '../../../protocol/model.js';
import type { HeardItem } from '../../../protocol/sim/heard.js';
import { ariTimestamp, parseAriTimestamp } from '../../util/timestamp.js';
import type { Channel } from './channel.js';
import type { Engine } from './engine.js';
import type { HeardAudio } from './heard-audio.js';
import type { HeardLists } from './heard-lists.js';
import { farDtmfAfter, farDtmfTotal } from './far-dtmf.js';

type Item = ModelOf<typeof HeardItem>;
type Kind = Item['kind'];

/** An item still going on: the channel it is on, and when it began (for its duration). */
interface Open {
  ch: Channel;
  item: Item;
  since: number;
}

/** Kinds read off the channel's state at each commit (one open item of each at most). */
const STATE_KINDS: readonly Kind[] = ['ringing', 'moh', 'silence', 'hold', 'bridge'];

/** Kinds that put sound on the line, so the audio capture runs while one is open. */
const AUDIBLE: ReadonlySet<Kind> = new Set<Kind>(['ringing', 'playback', 'tone', 'moh', 'bridge']);

/** The item of one prompt of a playback, from `at`: a `tone:` one is a tone item. */
function promptItem(at: number, media: string, lang: string): Item {
  return media.startsWith('tone:') ? { at: ariTimestamp(at), kind: 'tone', media } : { at: ariTimestamp(at), kind: 'playback', media, lang };
}

/**
 * The list of what each channel's far end was sent (/sim/channels/{id}/heard).
 *
 * Playbacks report their items as they start and end (they alone know the
 * language and whether an item played out). Everything else is read off the
 * channel's own state at each group commit, which sees every change the
 * turn made whichever engine part made it: ringing indicated while not
 * answered, music on hold, silence, hold, DTMF sent (the far end's digit
 * list), and who the channel hears in its bridge. The lists are kept
 * and written by HeardLists, and stay with the channel in the history.
 */
export class HeardLog {
  /** Open items by key: a playback's id, or `<kind>:<channel seq>` for the rest. */
  private readonly open = new Map<string, Open[]>();
  /** Keys open on each channel. */
  private readonly keys = new Map<Channel, Set<string>>();
  /** Open audible items of each channel (asked for every media frame, so counted rather than searched). */
  private readonly audibleOpen = new Map<Channel, number>();
  /** DTMF digits of each channel already listed. */
  private readonly dtmfSeen = new Map<Channel, number>();
  /** Channels whose bridge peers must be looked at again at the next commit (a peer ended). */
  private readonly recheck = new Set<string>();
  /** What each bridge is playing to its members now (for members joining part way): by bridge id. */
  private readonly bridgePlaying = new Map<string, { playbackId: string; media: string; lang: string }>();
  /** The bridge of each playback playing on a bridge, by playback id. */
  private readonly playingOn = new Map<string, string>();

  constructor(
    private readonly eng: Engine,
    private readonly lists: HeardLists,
    private readonly audio: HeardAudio,
    /** The ids of a bridge's members, in the order they joined. */
    private readonly bridgeMembers: (bridgeId: string) => readonly string[],
    /** The music on hold class a bridge plays to its members (ARI startMoh), or null. */
    private readonly bridgeMoh: (bridgeId: string) => string | null = () => null,
    /** Told of each item that ends on a channel (a far-end script waits for prompts to finish). */
    private readonly ended: (ch: Channel, item: Item) => void = () => {},
  ) {
    eng.onHangup((ch) => this.hungUp(ch));
    eng.onCommitted((changed) => this.sync(changed));
    for (const ch of eng.all()) if (ch.d.ended === null) this.restored(ch);
  }

  /**
   * A channel restored after a restart: items of its state that were going on
   * are taken up again (they end, with their whole duration, when the state
   * changes); a playback cannot have survived the restart, so one listed as
   * playing ends at the restart, not completed.
   */
  private restored(ch: Channel): void {
    const now = this.eng.clock.now();
    for (const item of this.lists.restore(ch)) {
      if (item.duration_ms !== undefined || item.kind === 'dtmf') continue;
      const since = parseAriTimestamp(item.at);
      if (item.kind === 'playback' || item.kind === 'tone') {
        Object.assign(item, { duration_ms: Math.max(0, Math.round(this.eng.clock.simSince(since, now))), completed: false });
        this.lists.changed(item);
      } else if (STATE_KINDS.includes(item.kind)) {
        this.track(ch, `${item.kind}:${ch.d.seq}`, item, since);
      }
    }
    this.dtmfSeen.set(ch, farDtmfTotal(ch.d.far));
  }

  /** What the channel's far end was sent, oldest first: a live channel's list, or an ended one's from the history. */
  items(ch: { live?: Channel; d: { seq: number } }): { items: Item[] } {
    return { items: ch.live ? [...this.lists.of(ch.live)] : this.lists.stored(ch.d.seq) };
  }

  /** Whether something audible is on its way to the channel's far end. */
  audible(ch: Channel): boolean {
    return (this.audibleOpen.get(ch) ?? 0) > 0;
  }

  /**
   * Whether the channel's far end hears nothing now: no ringing, prompt,
   * tone or music on hold is sent to it, no DTMF is being sent, and no other
   * member of its bridge has a far end that is talking.
   */
  quiet(ch: Channel): boolean {
    for (const key of this.keys.get(ch) ?? []) if (this.open.get(key)?.some((o) => o.ch === ch && o.item.kind !== 'bridge' && AUDIBLE.has(o.item.kind))) return false;
    if (this.eng.hasTimer(ch, 'dtmf')) return false;
    const peers = ch.d.bridge ? this.bridgeMembers(ch.d.bridge) : [];
    return !peers.some((id) => id !== ch.id && this.eng.find(id)?.d.far.talking);
  }

  private start(ch: Channel, key: string, item: Item, since: number): void {
    this.lists.add(ch, item);
    this.track(ch, key, item, since);
  }

  /** Keeps a listed item open under `key` until it ends, and captures audio while an audible one is. */
  private track(ch: Channel, key: string, item: Item, since: number): void {
    const opens = this.open.get(key) ?? [];
    opens.push({ ch, item, since });
    this.open.set(key, opens);
    let keys = this.keys.get(ch);
    if (!keys) this.keys.set(ch, (keys = new Set()));
    keys.add(key);
    if (AUDIBLE.has(item.kind)) {
      this.audibleOpen.set(ch, (this.audibleOpen.get(ch) ?? 0) + 1);
      this.audio.wake(ch);
    }
  }


  /** Ends the items open under `key` (on one channel, or on all), at `at` (default now). */
  private stop(key: string, ch?: Channel, extra: Partial<Item> = {}, at = this.eng.clock.now()): void {
    const opens = this.open.get(key);
    if (!opens) return;
    const rest: Open[] = [];
    for (const o of opens) {
      if (ch && o.ch !== ch) {
        rest.push(o);
        continue;
      }
      Object.assign(o.item, { duration_ms: Math.max(0, Math.round(this.eng.clock.simSince(o.since, at))) }, extra);
      this.keys.get(o.ch)?.delete(key);
      if (AUDIBLE.has(o.item.kind)) {
        const n = (this.audibleOpen.get(o.ch) ?? 1) - 1;
        if (n > 0) this.audibleOpen.set(o.ch, n);
        else this.audibleOpen.delete(o.ch);
      }
      this.lists.changed(o.item);
      this.ended(o.ch, o.item);
    }
    if (rest.length) this.open.set(key, rest);
    else this.open.delete(key);
  }

  private openItem(ch: Channel, key: string): Item | undefined {
    return this.open.get(key)?.find((o) => o.ch === ch)?.item;
  }

  // ---- playbacks (the PlaybackHearing port) -----------------------------------------

  /** An item of a playback began at `at` on a target: every channel hearing the target lists it. */
  playbackStarted(target: string, playbackId: string, media: string, lang: string, at: number): void {
    const i = target.indexOf(':');
    const id = target.slice(i + 1);
    const onBridge = target.slice(0, i) === 'bridge';
    const ids = onBridge ? this.bridgeMembers(id) : [id];
    if (onBridge) {
      this.bridgePlaying.set(id, { playbackId, media, lang });
      this.playingOn.set(playbackId, id);
    }
    for (const cid of ids) {
      const ch = this.eng.find(cid);
      if (!ch || ch.d.ended !== null) continue;
      this.start(ch, `playback:${playbackId}`, promptItem(at, media, lang), at);
    }
  }

  /** The playback's current item ended at `at` (default now): played out, or stopped short. */
  playbackEnded(playbackId: string, completed: boolean, at?: number): void {
    this.stop(`playback:${playbackId}`, undefined, { completed }, at);
    const bridge = this.playingOn.get(playbackId);
    if (bridge === undefined) return;
    this.playingOn.delete(playbackId);
    if (this.bridgePlaying.get(bridge)?.playbackId === playbackId) this.bridgePlaying.delete(bridge);
  }

  /**
   * A member hears what its bridge is playing from the moment it joins (an
   * item starting then); one that leaves stops hearing it (its item ends,
   * not completed).
   */
  private matchBridgePlayback(ch: Channel): void {
    for (const key of [...(this.keys.get(ch) ?? [])]) {
      const bridge = key.startsWith('playback:') ? this.playingOn.get(key.slice('playback:'.length)) : undefined;
      if (bridge !== undefined && bridge !== ch.d.bridge) this.stop(key, ch, { completed: false });
    }
    const playing = ch.d.bridge ? this.bridgePlaying.get(ch.d.bridge) : undefined;
    if (!playing || this.openItem(ch, `playback:${playing.playbackId}`)) return;
    const now = this.eng.clock.now();
    this.start(ch, `playback:${playing.playbackId}`, promptItem(now, playing.media, playing.lang), now);
  }

  // ---- channel state ----------------------------------------------------------------

  private hungUp(ch: Channel): void {
    for (const key of [...(this.keys.get(ch) ?? [])]) {
      const item = this.openItem(ch, key);
      if (item?.kind === 'bridge') for (const p of item.peers ?? []) this.recheck.add(p);
      this.stop(key, ch, item?.kind === 'playback' || item?.kind === 'tone' ? { completed: false } : {});
    }
    this.syncDtmf(ch);
    this.keys.delete(ch);
    this.audibleOpen.delete(ch);
    this.dtmfSeen.delete(ch);
    this.audio.end(ch);
  }

  /** Opens or closes a state item so it matches what the channel sends now; `value` undefined means off. */
  private match(ch: Channel, kind: Kind, value: Partial<Item> | undefined): void {
    const key = `${kind}:${ch.d.seq}`;
    const cur = this.openItem(ch, key);
    if (cur && value && JSON.stringify({ ...cur, at: '', duration_ms: 0 }) === JSON.stringify({ ...cur, ...value, at: '', duration_ms: 0 })) return;
    if (cur) this.stop(key, ch);
    if (value) {
      const now = this.eng.clock.now();
      this.start(ch, key, { at: ariTimestamp(now), kind, ...value }, now);
    }
  }

  private syncDtmf(ch: Channel): void {
    const total = farDtmfTotal(ch.d.far);
    const seen = this.dtmfSeen.get(ch) ?? 0;
    if (total === seen) return;
    for (const d of farDtmfAfter(ch.d.far, seen)) {
      const at = this.eng.clock.instantAfter(d.offset_ms, ch.d.created);
      this.lists.add(ch, { at: ariTimestamp(at), kind: 'dtmf', digit: d.digit, duration_ms: d.duration_ms });
    }
    this.dtmfSeen.set(ch, total);
  }

  /** Brings the open items of the channels a commit wrote (and those sharing a bridge with them) in line with their state. */
  private sync(changed: readonly Channel[]): void {
    const todo = new Set<Channel>();
    const consider = (c: Channel | undefined) => {
      if (!c || c.d.ended !== null || todo.has(c)) return;
      todo.add(c);
      if (c.d.bridge) for (const id of this.bridgeMembers(c.d.bridge)) consider(this.eng.find(id));
      for (const id of this.openItem(c, `bridge:${c.d.seq}`)?.peers ?? []) consider(this.eng.find(id));
    };
    for (const id of this.recheck) consider(this.eng.find(id));
    this.recheck.clear();
    for (const c of changed) consider(c);
    for (const ch of todo) {
      const m = ch.d.media;
      this.match(ch, 'ringing', m.ringing && ch.d.state !== 'Up' ? {} : undefined);
      const moh = m.moh ?? (ch.d.bridge ? this.bridgeMoh(ch.d.bridge) : null);
      this.match(ch, 'moh', moh ? { class: moh } : undefined);
      this.match(ch, 'silence', m.silence ? {} : undefined);
      this.match(ch, 'hold', m.hold ? {} : undefined);
      this.match(ch, 'bridge', ch.d.bridge ? { peers: this.bridgeMembers(ch.d.bridge).filter((id) => id !== ch.id) } : undefined);
      this.matchBridgePlayback(ch);
      this.syncDtmf(ch);
    }
  }
}
