import type { DeviceStateName } from '../../../protocol/ari/models/device-state.js';
import type { EndpointState } from '../../../protocol/ari/models/endpoint.js';
import type { DeviceStateRepo } from '../../db/repos/device-state-repo.js';
import type { MetaRepo } from '../../db/repos/meta-repo.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { StasisApp } from '../apps.js';
import type { EndpointFixture } from '../fixtures.js';
import type { Channel } from './channel.js';
import { EndpointTally, parseWritableDeviceState } from './device-state-aggregate.js';
import { DeviceSubscriptions } from './device-subscriptions.js';
import type { Engine } from './engine.js';

/** Prefix of the devices applications set; matched without regard to case, as Asterisk does. */
const STASIS = 'Stasis:';
const isStasis = (name: string) => name.slice(0, STASIS.length).toLowerCase() === STASIS.toLowerCase();
/** Byte order of the UTF-8 names, as Asterisk lists its astdb keys. */
const byName = (a: { name: string }, b: { name: string }) => Buffer.compare(Buffer.from(a.name), Buffer.from(b.name));

/** What device states use of the engine. */
export type DeviceStateEngine = Pick<Engine, 'apps' | 'fixtures' | 'all' | 'emit' | 'deferWrite' | 'onCommitted'>;

/**
 * Device states: our endpoints' (PJSIP/alice), summed over their live
 * channels at every group commit, and the `Stasis:` devices applications
 * set (kept in SQLite). A device whose state differs from the one last
 * announced raises DeviceStateChanged to its subscribers and to every
 * subscribeAll application, after the channel events of the same commit.
 * Built after the restored channels are back, which it counts from the start.
 */
export class DeviceStates {
  /** `Stasis:` devices, by the name after the prefix. */
  private readonly stasis = new Map<string, DeviceStateName>();
  /** The state last announced for each device (what Asterisk keeps in its device state cache). */
  private readonly announced = new Map<string, DeviceStateName>();
  /** Live channels of each endpoint, by its key (PJSIP/alice), counted again at every commit. */
  private readonly endpoints = new Map<string, EndpointTally>();
  private readonly subscriptions: DeviceSubscriptions;

  constructor(
    private readonly eng: DeviceStateEngine,
    private readonly repo: DeviceStateRepo,
    meta: MetaRepo,
    /** Most `Stasis:` devices kept, and most devices one application subscribes to (ARI_MAX_STORED_OBJECTS). */
    private readonly maxStored: number,
    /** Whether an endpoint can be reached now (its registrations); the fixture's state by default. */
    private readonly endpointState: (f: EndpointFixture) => EndpointState = (f) => f.state,
  ) {
    for (const row of repo.all()) {
      const state = parseWritableDeviceState(row.state);
      if (!state) continue;
      this.stasis.set(row.name, state);
      this.announced.set(STASIS + row.name, state);
    }
    for (const f of eng.fixtures.endpoints.values()) this.endpoints.set(f.key, new EndpointTally(f, () => endpointState(f)));
    for (const ch of eng.all()) this.endpoints.get(ch.d.endpoint)?.update(ch);
    for (const [key, tally] of this.endpoints) this.announced.set(key, tally.state);
    this.subscriptions = new DeviceSubscriptions(eng.apps, meta, (w) => eng.deferWrite(w), maxStored);
    eng.onCommitted((changed) => this.settle(changed));
  }

  /** GET /deviceStates: the `Stasis:` devices, in name order. */
  list(): Array<{ name: string; state: DeviceStateName }> {
    return [...this.stasis].map(([name, state]) => ({ name: STASIS + name, state })).sort(byName);
  }

  /** Any device by name, echoed as given: an endpoint of ours, a `Stasis:` device (UNKNOWN when unset), else INVALID. */
  get(name: string): { name: string; state: DeviceStateName } {
    return { name, state: this.stateOf(name) };
  }

  /** PUT: sets a `Stasis:` device; a change is announced once it is committed. */
  update(name: string, value: string | undefined): void {
    const key = this.writableKey(name);
    const state = value === undefined ? undefined : parseWritableDeviceState(value);
    // Asterisk answers a missing or unknown state with 500 "Unknown device"; bad input is a 400 here.
    if (!state) throw badRequest('Unknown device');
    // A new device needs room; changing one that is kept always works.
    if (!this.stasis.has(key) && this.stasis.size >= this.maxStored) throw badRequest(`There are already ${this.maxStored} Stasis device states`);
    this.stasis.set(key, state);
    this.eng.deferWrite(() => this.repo.put(key, state));
    this.announce(STASIS + key, state);
  }

  /**
   * DELETE: forgets a `Stasis:` device, which reads UNKNOWN again and is
   * announced so even when it already was. A device never set since the
   * start (and not stored) is left alone, as Asterisk does: 204, no event.
   */
  remove(name: string): void {
    const key = this.writableKey(name);
    const full = STASIS + key;
    if (!this.announced.has(full)) return;
    this.stasis.delete(key);
    this.eng.deferWrite(() => this.repo.remove(key));
    this.announced.delete(full);
    this.announce(full, 'UNKNOWN');
  }

  /** An endpoint went online or offline: with no calls its device state follows (NOT_INUSE, UNAVAILABLE). */
  endpointChanged(key: string): void {
    const tally = this.endpoints.get(key);
    if (tally) this.announce(key, tally.state);
  }

  /** applications/subscribe with `deviceState:<name>`: any name is accepted, as in Asterisk. */
  subscribe(app: string, device: string): void {
    this.subscriptions.subscribe(app, device);
  }

  /** Before a subscribe changes anything: 400 when the app would hear about more devices than it may. */
  checkRoom(app: StasisApp, devices: string[]): void {
    this.subscriptions.checkRoom(app, devices);
  }

  /** True when the app hears about the device: subscribed to it, or to everything (as Asterisk checks before an unsubscribe). */
  isSubscribed(app: StasisApp, device: string): boolean {
    return this.subscriptions.isSubscribed(app, device);
  }

  /** applications/unsubscribe (after `isSubscribed`). */
  unsubscribe(app: string, device: string): void {
    this.subscriptions.unsubscribe(app, device);
  }

  private writableKey(name: string): string {
    if (!isStasis(name)) throw conflict('Uncontrolled device specified');
    const key = name.slice(STASIS.length);
    if (!key) throw notFound('Device name is missing');
    return key;
  }

  private stateOf(name: string): DeviceStateName {
    if (isStasis(name)) return this.stasis.get(name.slice(STASIS.length)) ?? 'UNKNOWN';
    const f = name.includes('/') ? this.eng.fixtures.endpoints.get(name.toLowerCase()) : undefined;
    return f ? this.tallyOf(f.key)!.state : 'INVALID';
  }

  /** At each commit: the endpoints whose channels changed are summed again, and announced if their state moved. */
  private settle(changed: readonly Channel[]): void {
    let touched: Set<string> | undefined;
    for (const ch of changed) {
      const tally = this.tallyOf(ch.d.endpoint);
      if (!tally) continue;
      tally.update(ch);
      (touched ??= new Set()).add(ch.d.endpoint);
    }
    if (touched) for (const key of touched) this.announce(key, this.endpoints.get(key)!.state);
  }

  /**
   * The tally of an endpoint: endpoints made at run time (asterisk/config/dynamic) get theirs
   * when first counted; a deleted one keeps counting its live channels (and, made again, keeps
   * its entry object, so the tally sees its new attributes).
   */
  private tallyOf(key: string): EndpointTally | undefined {
    const f = this.eng.fixtures.endpoints.get(key.toLowerCase());
    let tally = this.endpoints.get(key);
    if (!tally && f) this.endpoints.set(key, (tally = new EndpointTally(f, () => this.endpointState(f))));
    return tally;
  }

  private announce(name: string, state: DeviceStateName): void {
    if (this.announced.get(name) === state) return;
    this.announced.set(name, state);
    this.eng.emit('DeviceStateChanged', { device_state: { name, state } }, this.subscriptions.recipients(name));
  }
}
