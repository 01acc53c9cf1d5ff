import type { MetaRepo } from '../../db/repos/meta-repo.js';
import type { AppRegistry } from '../apps.js';
import type { Channel } from './channel.js';
import type { GroupCommit } from './group-commit.js';

/**
 * Which applications hear about which channels: per-channel subscriptions
 * (kept in the channel's record), endpoint subscriptions (kept in the meta
 * table) and subscribeAll.
 */
export class Subscriptions {
  /** applications/subscribe to `endpoint:TECH[/resource]`, keyed lower-case. */
  private readonly endpointSubs = new Map<string, Set<string>>();

  constructor(
    private readonly apps: AppRegistry,
    private readonly meta: MetaRepo,
    private readonly commits: GroupCommit,
  ) {
    const subs = meta.get('endpoint_subscriptions');
    if (subs) for (const [app, endpoint] of JSON.parse(subs) as Array<[string, string]>) this.subscribeEndpoint(app, endpoint, false);
  }

  /** Tells the apps about a live channel's stored subscriptions (a new or restored channel). */
  track(ch: Channel): void {
    for (const [app, n] of Object.entries(ch.d.subs)) if (n > 0) this.apps.ensure(app).channels.add(ch.id);
  }

  /** Drops every subscription of a channel that ended. */
  dropAll(ch: Channel): void {
    for (const app of Object.keys(ch.d.subs)) this.drop(ch, app);
  }

  /** Adds `n` subscriptions of `app` to a channel. */
  subscribe(ch: Channel, app: string, n = 1): void {
    ch.d.subs[app] = (ch.d.subs[app] ?? 0) + n;
    this.apps.ensure(app).channels.add(ch.id);
    this.commits.touch(ch);
  }

  /** Removes `n` subscriptions of `app` from a channel; at zero the app stops hearing about it. */
  unsubscribe(ch: Channel, app: string, n = 1): void {
    const left = (ch.d.subs[app] ?? 0) - n;
    if (left > 0) ch.d.subs[app] = left;
    else this.drop(ch, app);
    this.commits.touch(ch);
  }

  private drop(ch: Channel, app: string): void {
    delete ch.d.subs[app];
    const a = this.apps.get(app);
    if (a) {
      a.channels.delete(ch.id);
      this.apps.forgetIfIdle(a);
    }
  }

  /** Subscribes an app to an endpoint or a whole technology; `store` false when loading the stored list. */
  subscribeEndpoint(app: string, endpoint: string, store = true): void {
    const key = endpoint.toLowerCase();
    const set = this.endpointSubs.get(key) ?? new Set<string>();
    set.add(app);
    this.endpointSubs.set(key, set);
    this.apps.ensure(app).endpoints.add(endpoint);
    if (store) this.storeEndpointSubs();
  }

  /** Ends an app's subscription to an endpoint or technology. */
  unsubscribeEndpoint(app: string, endpoint: string): void {
    const key = endpoint.toLowerCase();
    this.endpointSubs.get(key)?.delete(app);
    if (this.endpointSubs.get(key)?.size === 0) this.endpointSubs.delete(key);
    const a = this.apps.get(app);
    if (a) {
      a.endpoints.delete(endpoint);
      this.apps.forgetIfIdle(a);
    }
    this.storeEndpointSubs();
  }

  /** Endpoint subscriptions are kept with the next commit, so they outlive a restart as channel subscriptions do. */
  private storeEndpointSubs(): void {
    const list = this.apps.list().flatMap((a) => [...a.endpoints].map((e) => [a.name, e]));
    this.commits.deferWrite(() => this.meta.set('endpoint_subscriptions', JSON.stringify(list)));
  }

  private addEndpointSubscribers(ch: Channel, to: Set<string>): Set<string> {
    if (this.endpointSubs.size) {
      for (const key of [ch.d.endpoint.toLowerCase(), ch.d.tech.toLowerCase()]) for (const app of this.endpointSubs.get(key) ?? []) to.add(app);
    }
    return to;
  }

  /** Who hears ChannelCreated: per-channel subscriptions start after creation, so only subscribeAll and endpoint subscribers. */
  creationRecipients(ch: Channel): Set<string> {
    return this.addEndpointSubscribers(ch, new Set(this.apps.subscribedToAll));
  }

  /** Apps that hear about a channel: its subscribers plus every subscribeAll app. */
  recipients(ch: Channel): Set<string> {
    const to = new Set<string>();
    for (const [app, n] of Object.entries(ch.d.subs)) if (n > 0) to.add(app);
    for (const app of this.apps.subscribedToAll) to.add(app);
    return this.addEndpointSubscribers(ch, to);
  }
}
