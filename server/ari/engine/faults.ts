import { ARI_RESOURCES } from '../../../protocol/ari/resources.js';
import type { FaultKind } from '../../../protocol/sim/fault-operations.js';
import { badRequest, notFound } from '../../errors.js';
import type { AppRegistry } from '../apps.js';
import type { EndpointFixture } from '../fixtures.js';
import type { IdSource } from '../time/id-source.js';
import type { EventDelays } from './event-delays.js';

/** The fields a fault is given (POST /sim/faults), as bound. */
export interface FaultInput {
  kind: FaultKind;
  app?: string | undefined;
  operation?: string | undefined;
  status?: number | undefined;
  count?: number | undefined;
  ms?: number | undefined;
  endpoint?: string | undefined;
  percent?: number | undefined;
}

/** A fault in place, as the simulation API shows it. */
export interface FaultView {
  id: string;
  kind: FaultKind;
  app?: string;
  operation?: string;
  status?: number;
  count?: number;
  remaining?: number;
  ms?: number;
  endpoint?: string;
  percent?: number;
}

type Field = Exclude<keyof FaultInput, 'kind'>;

/** What each kind needs; it takes nothing else. */
const FIELDS: Record<FaultKind, readonly Field[]> = {
  drop_socket: ['app'],
  fail_requests: ['operation', 'status', 'count'],
  delay_events: ['app', 'ms'],
  endpoint_unreachable: ['endpoint'],
  media_loss: ['endpoint', 'percent'],
};
const ALL_FIELDS: readonly Field[] = ['app', 'operation', 'status', 'count', 'ms', 'endpoint', 'percent'];

/** Names a request to an ARI operation can be failed by: its nickname, and resource.nickname. */
const OPERATION_NAMES = new Set(ARI_RESOURCES.flatMap((r) => r.operations.flatMap((op) => [op.nickname, `${op.resource}.${op.nickname}`])));

/** What the faults need from the engine: its applications, its delay line, its endpoints and its ids. */
export interface FaultDeps {
  apps: AppRegistry;
  delays: EventDelays;
  endpoint: (name: string) => EndpointFixture | undefined;
  ids: IdSource;
  /** How many faults may be in place at once (ARI_MAX_STORED_OBJECTS). */
  max: number;
}

/**
 * Faults injected through the simulation API, kept in memory only (a
 * restart forgets them). Each part of the server that can fail asks here:
 * the ARI binder (fail_requests), the event outbox through the delay line
 * (delay_events), calls (endpoint_unreachable) and RTP statistics
 * (media_loss); drop_socket acts at once and is not kept.
 */
export class Faults {
  private readonly faults = new Map<string, FaultView>();

  constructor(private readonly deps: FaultDeps) {}

  add(input: FaultInput): FaultView {
    const wanted = FIELDS[input.kind];
    for (const k of wanted) if (input[k] === undefined) throw badRequest(`A ${input.kind} fault needs '${k}'`);
    for (const k of ALL_FIELDS) if (!wanted.includes(k) && input[k] !== undefined) throw badRequest(`A ${input.kind} fault does not take '${k}'`);
    const view: FaultView = { id: this.deps.ids.uuid(), kind: input.kind };
    for (const k of wanted) (view as unknown as Record<string, unknown>)[k] = input[k];
    if (view.app !== undefined && !this.sinksOf(view.app).length) throw badRequest(`Application '${view.app}' has no event socket`);
    if (view.operation !== undefined && !OPERATION_NAMES.has(view.operation)) throw badRequest(`No ARI operation is called '${view.operation}'`);
    if (view.endpoint !== undefined) {
      const f = this.deps.endpoint(view.endpoint);
      if (!f) throw badRequest(`Endpoint '${view.endpoint}' not found`);
      view.endpoint = f.key;
    }
    if (input.kind === 'drop_socket') {
      this.drop(view.app!);
      return view;
    }
    if (this.faults.size >= this.deps.max) throw badRequest(`At most ${this.deps.max} faults may be in place at once (ARI_MAX_STORED_OBJECTS)`);
    if (input.kind === 'fail_requests') view.remaining = view.count!;
    this.faults.set(view.id, view);
    if (view.kind === 'delay_events') this.syncDelay(view.app!);
    return { ...view };
  }

  list(): FaultView[] {
    return [...this.faults.values()].map((f) => ({ ...f }));
  }

  remove(id: string): void {
    const f = this.faults.get(id);
    if (!f) throw notFound('Fault not found');
    this.faults.delete(id);
    if (f.kind === 'delay_events') this.syncDelay(f.app!);
  }

  clear(): void {
    for (const id of [...this.faults.keys()]) this.remove(id);
  }

  /** A request to this operation is about to run: the status it is to fail with instead, counted off its fault. */
  failing(resource: string, nickname: string): number | undefined {
    for (const f of this.faults.values()) {
      if (f.kind !== 'fail_requests' || (f.operation !== nickname && f.operation !== `${resource}.${nickname}`)) continue;
      f.remaining = f.remaining! - 1;
      if (f.remaining <= 0) this.faults.delete(f.id);
      return f.status;
    }
    return undefined;
  }

  /** Whether calls to and from the endpoint (its key, TECH/resource) fail as to a peer that does not answer. */
  unreachable(endpoint: string): boolean {
    const key = endpoint.toLowerCase();
    for (const f of this.faults.values()) if (f.kind === 'endpoint_unreachable' && f.endpoint!.toLowerCase() === key) return true;
    return false;
  }

  /** The share of the endpoint's media packets lost by fault (the largest in place), or undefined when none is. */
  lossPercent(endpoint: string): number | undefined {
    const key = endpoint.toLowerCase();
    let out: number | undefined;
    for (const f of this.faults.values()) if (f.kind === 'media_loss' && f.endpoint!.toLowerCase() === key) out = Math.max(out ?? 0, f.percent!);
    return out;
  }

  /** The sockets serving or watching an app. */
  private sinksOf(app: string) {
    const serving = this.deps.apps.get(app)?.sink;
    return [...(serving ? [serving] : []), ...(this.deps.apps.watchersOf(app) ?? [])];
  }

  /**
   * Cuts the app's sockets. The app is let go here rather than when the
   * socket's close is noticed, so it is inactive by the time the fault is
   * answered (the later close finds nothing left to do).
   */
  private drop(app: string): void {
    for (const sink of this.sinksOf(app)) {
      sink.cut?.();
      this.deps.apps.deactivate(app, sink);
      this.deps.apps.unwatch(app, sink);
    }
  }

  /** An app's delay is the longest of its delay_events faults. */
  private syncDelay(app: string): void {
    let ms = 0;
    for (const f of this.faults.values()) if (f.kind === 'delay_events' && f.app === app) ms = Math.max(ms, f.ms!);
    this.deps.delays.set(app, ms);
  }
}
