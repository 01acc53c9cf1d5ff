import { parseAriTimestamp } from '../../server/util/timestamp.js';
import type { ExpectationResult } from './expectation-result.js';
import { compileFields, countBounds } from './matchers.js';
import type { EventExpectation } from './scenario-schema.js';
import type { TappedEvent } from './tap-stream.js';

/** What the event expectations are judged against: the tapped stream and when and as what each call was placed. */
export interface EventFacts {
  events: TappedEvent[];
  /** Call id → its channel id and the instant (epoch ms, simulated) it was placed. */
  calls: Map<string, { channelId: string; placedAt: number }>;
  /** The instant the first call was placed: `within_ms` of an expectation with neither `call` nor `after` counts from here. */
  start: number;
}

/** Events shown either side of where an expectation went wrong. */
const WINDOW = 4;
/** Near misses listed for a failure. */
const NEAREST = 3;

export const instantOf = (e: Record<string, any>): number => parseAriTimestamp(String(e.timestamp));

/** Whether an event is about a channel: as its channel, its peer, a bridge member, or the target of its playback or recording. */
export function concerns(e: Record<string, any>, channelId: string): boolean {
  return e.channel?.id === channelId || e.peer?.id === channelId
    || (Array.isArray(e.bridge?.channels) && e.bridge.channels.includes(channelId))
    || e.playback?.target_uri === `channel:${channelId}` || e.recording?.target_uri === `channel:${channelId}`;
}

export const labelOf = (x: { id?: string | undefined; type: string; call?: string | undefined }, i: number) =>
  `events[${i}]${x.id ? ` ${x.id}` : ''}: ${x.type}${x.call ? ` (call ${x.call})` : ''}`;

function windowAround(events: TappedEvent[], seq: number): TappedEvent[] {
  return events.slice(Math.max(0, seq - WINDOW), seq + WINDOW + 1);
}

/**
 * Judges event expectations in file order: `after` refers only to earlier ones, whose first
 * counted event is the anchor (the expectation's events must come later in the stream, and
 * `within_ms` counts from its timestamp); without `after`, `within_ms` counts from the
 * instant the expectation's call was placed, or the first call's.
 */
export function judgeEvents(list: EventExpectation[], facts: EventFacts): ExpectationResult[] {
  const firstOf = new Map<string, TappedEvent | null>();
  return list.map((x, i) => {
    const label = labelOf(x, i);
    const fail = (reason: string, details: string[], seq: number): ExpectationResult =>
      ({ kind: 'event', label, pass: false, reason, details, window: windowAround(facts.events, seq) });
    const call = x.call === undefined ? undefined : facts.calls.get(x.call);
    const fields = compileFields(x.match);
    const bounds = countBounds(x.count);
    let anchor: TappedEvent | undefined;
    if (x.after !== undefined) {
      const a = firstOf.get(x.after);
      if (!a) {
        if (x.id !== undefined) firstOf.set(x.id, null);
        return fail(`it must follow '${x.after}', which never happened`, [], facts.events.length - 1);
      }
      anchor = a;
    }
    const from = anchor ? instantOf(anchor.event) : call ? call.placedAt : facts.start;
    const counted: TappedEvent[] = [];
    const misses: Array<{ seq: number; why: string }> = [];
    for (const t of facts.events) {
      const e = t.event;
      if (e.type !== x.type) continue;
      if (x.call !== undefined && (!call || !concerns(e, call.channelId))) continue;
      const wrong = fields.test(e);
      if (wrong.length) misses.push({ seq: t.seq, why: wrong.join('; ') });
      else if (anchor && t.seq <= anchor.seq) misses.push({ seq: t.seq, why: `came before '${x.after}' (event #${anchor.seq})` });
      else if (x.within_ms !== undefined && instantOf(e) - from > x.within_ms) misses.push({ seq: t.seq, why: `came ${instantOf(e) - from} ms after ${anchor ? `'${x.after}'` : 'the call was placed'}, more than within_ms ${x.within_ms}` });
      else counted.push(t);
    }
    if (x.id !== undefined) firstOf.set(x.id, counted[0] ?? null);
    const n = counted.length;
    const wanted = `${bounds.describe}${x.match ? ` with ${fields.describe}` : ''}`;
    if (n >= bounds.min && n <= bounds.max) return { kind: 'event', label, pass: true, reason: `${n} seen (wanted ${wanted})`, details: [] };
    const details = misses.slice(0, NEAREST).map((m) => `#${m.seq}: ${m.why}`);
    if (n > bounds.max) return fail(`${n} seen, wanted ${wanted}`, [`#${counted[bounds.max]!.seq} is one too many`, ...details], counted[bounds.max]!.seq);
    const at = misses[0]?.seq ?? counted[n - 1]?.seq ?? facts.events.length - 1;
    const none = n === 0 && !misses.length ? `; no ${x.type}${x.call ? ` concerning call ${x.call}` : ''} came at all` : '';
    return fail(`${n} seen, wanted ${wanted}${misses.length ? '; nearest candidates:' : none}`, details, at);
  });
}
