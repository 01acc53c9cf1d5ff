import type { MetaRepo } from '../../db/repos/meta-repo.js';
import { badRequest } from '../../errors.js';
import type { AppRegistry, StasisApp } from '../apps.js';

const META_KEY = 'device_subscriptions';

/**
 * Which applications hear about which devices: subscriptions made with
 * `deviceState:<name>` (kept in the meta table, so they outlive a restart
 * as endpoint subscriptions do) and every application subscribed to
 * everything. Names match without regard to case, as Asterisk's device
 * topics do; each application keeps the name as it gave it.
 */
export class DeviceSubscriptions {
  /** Subscribed applications by device name, lower case. */
  private readonly byDevice = new Map<string, Set<string>>();

  constructor(
    private readonly apps: AppRegistry,
    private readonly meta: MetaRepo,
    /** Runs a write inside the next group commit. */
    private readonly deferWrite: (write: () => void) => void,
    /** Most device names one application subscribes to (ARI_MAX_STORED_OBJECTS). */
    private readonly maxPerApp: number,
  ) {
    const stored = meta.get(META_KEY);
    if (stored) for (const [app, device] of JSON.parse(stored) as Array<[string, string]>) this.add(app, device);
  }

  /** Subscribes an app to a device (any name: the device need not have a state yet). */
  subscribe(app: string, device: string): void {
    this.add(app, device);
    this.store();
  }

  /** 400 when subscribing the app to these devices would pass its limit (names it has are free). */
  checkRoom(app: StasisApp, devices: string[]): void {
    const added = new Set(devices.filter((d) => !app.devices.has(d)));
    if (app.devices.size + added.size > this.maxPerApp) throw badRequest(`An application may be subscribed to at most ${this.maxPerApp} devices`);
  }

  /** Ends an app's subscription to a device. */
  unsubscribe(app: string, device: string): void {
    const key = device.toLowerCase();
    const a = this.apps.get(app);
    a?.devices.delete(device);
    // Another spelling of the same name may still subscribe the app.
    if (!a || ![...a.devices].some((d) => d.toLowerCase() === key)) {
      this.byDevice.get(key)?.delete(app);
      if (this.byDevice.get(key)?.size === 0) this.byDevice.delete(key);
    }
    if (a) this.apps.forgetIfIdle(a);
    this.store();
  }

  /** As Asterisk checks before an unsubscribe: a subscribeAll app counts as subscribed to every device. */
  isSubscribed(app: StasisApp, device: string): boolean {
    return app.subscribeAll || app.devices.has(device);
  }

  /** Apps that hear about a device: its subscribers and every subscribeAll app. */
  recipients(device: string): Set<string> {
    const to = new Set(this.apps.subscribedToAll);
    for (const app of this.byDevice.get(device.toLowerCase()) ?? []) to.add(app);
    return to;
  }

  private add(app: string, device: string): void {
    const key = device.toLowerCase();
    let set = this.byDevice.get(key);
    if (!set) this.byDevice.set(key, (set = new Set()));
    set.add(app);
    this.apps.ensure(app).devices.add(device);
  }

  private store(): void {
    const list = this.apps.list().flatMap((a) => [...a.devices].map((d) => [a.name, d]));
    this.deferWrite(() => this.meta.set(META_KEY, JSON.stringify(list)));
  }
}
