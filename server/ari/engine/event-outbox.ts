import * as v from 'valibot';
import { EVENTS_BY_TYPE, type EventType } from '../../../protocol/ari/events/index.js';
import type { Logger } from '../../log.js';
import { ariTimestamp } from '../../util/timestamp.js';
import { eventAllowed, type AppRegistry, type EventSink } from '../apps.js';
import type { Clock } from '../time/clock.js';
import type { EventProps } from './ari-models.js';
import type { EventDelay } from './event-delays.js';
import type { EventTapPort } from './event-taps.js';

/** How the outbox stamps, checks and wakes the group commit. */
export interface EventOutboxDeps {
  apps: AppRegistry;
  clock: Clock;
  log: Logger;
  entityId: string;
  /** Test mode: every outgoing event is checked against protocol/. */
  checkEvents: boolean;
  /** Asks for a flush at the end of the turn (the events leave there). */
  wake: () => void;
  /** Frames to some applications may leave later (the delay_events fault). */
  delay?: EventDelay | undefined;
  /** Copies of what the app's sockets are sent (GET /sim/events); never a recipient of its own. */
  taps?: EventTapPort | undefined;
}

/**
 * Events to Stasis applications: each is serialised once, queued per
 * recipient, and delivered by the group commit after the state it announces.
 */
export class EventOutbox {
  /** Contract violations seen in test mode (events that do not match protocol/). */
  readonly violations: string[] = [];
  private pending: Array<{ sink: EventSink; json: string; app: string }> = [];

  constructor(private readonly deps: EventOutboxDeps) {}

  /** One event as a frame for one app (for a socket that is no longer the app's, e.g. ApplicationReplaced). */
  frame<T extends EventType>(type: T, props: EventProps<T>, app: string): string {
    const obj = { type, timestamp: ariTimestamp(this.deps.clock.now()), ...props, asterisk_id: this.deps.entityId, application: app };
    if (this.deps.checkEvents) this.check(type, obj);
    return JSON.stringify(obj);
  }

  /** Serialises an event once and queues it for each active recipient (and the read-only sockets watching it). */
  emit<T extends EventType>(type: T, props: EventProps<T>, to: Iterable<string>): void {
    const { apps, entityId } = this.deps;
    let base: string | undefined;
    let obj: Record<string, unknown> | undefined;
    for (const app of to) {
      const known = apps.get(app);
      const sink = known?.sink;
      const watchers = apps.watchersOf(app);
      // The app's event filter holds the type back from its socket and from those watching it.
      if ((!sink && !watchers) || !eventAllowed(known, type)) continue;
      if (base === undefined) {
        obj = { type, timestamp: ariTimestamp(this.deps.clock.now()), ...props };
        base = JSON.stringify(obj).slice(0, -1);
      }
      if (this.deps.checkEvents) this.check(type, { ...obj, asterisk_id: entityId, application: app });
      const json = `${base},"asterisk_id":${JSON.stringify(entityId)},"application":${JSON.stringify(app)}}`;
      if (sink) this.pending.push({ sink, json, app });
      // Read-only sockets watching the app get the same frames, in the same flush.
      if (watchers) for (const w of watchers) this.pending.push({ sink: w, json, app });
      // Taps come last, so each sees the frame after the app's own sockets, held back by the same delay.
      const taps = this.deps.taps?.tapsOf(app);
      if (taps) for (const tap of taps) this.pending.push({ sink: tap, json, app });
    }
    if (base !== undefined) this.deps.wake();
  }

  /** Sends every queued frame, corking each socket for the batch. */
  deliver(): void {
    if (!this.pending.length) return;
    const out = this.pending;
    this.pending = [];
    const corked = new Set<EventSink>();
    const { delay } = this.deps;
    for (const { sink, json, app } of out) {
      if (delay?.hold(app, sink, json)) continue;
      if (sink.cork && !corked.has(sink)) {
        corked.add(sink);
        sink.cork();
      }
      sink.deliver(json);
    }
    for (const sink of corked) sink.uncork!();
  }

  private check(type: string, event: unknown): void {
    const def = EVENTS_BY_TYPE.get(type);
    const r = def ? v.safeParse(def.schema, event) : undefined;
    if (!r?.success) {
      const msg = `event ${type} does not match protocol/: ${r ? r.issues.map((i) => `${i.path?.map((p) => String(p.key)).join('.') ?? ''} ${i.message}`).join('; ') : 'undeclared type'}`;
      this.violations.push(msg);
      this.deps.log.error({ event }, msg);
    }
  }
}
