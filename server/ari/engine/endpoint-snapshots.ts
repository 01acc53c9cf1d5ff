import type { EndpointState } from '../../../protocol/ari/models/endpoint.js';
import type { EndpointFixture } from '../fixtures.js';
import type { AriEndpoint } from './ari-models.js';
import type { Channel } from './channel.js';
import type { Engine } from './engine.js';
import { endpointRecipients } from './endpoint-recipients.js';

/** What endpoint snapshots use of the engine. */
export type EndpointSnapshotEngine = Pick<Engine, 'apps' | 'fixtures' | 'all' | 'emit' | 'onCommitted'>;

/**
 * Each endpoint's snapshot as last published (its state and the ids of its
 * channels), and the EndpointStateChange that goes out whenever it changes.
 * As in Asterisk, a new snapshot is published for every change, not only a
 * change of state: a channel of the endpoint appearing, a channel going away,
 * the endpoint going online or offline. Channel changes are read at each group
 * commit, in the order the channels were changed, so their endpoint events
 * follow the channel events of the same turn (ChannelCreated first,
 * ChannelDestroyed before the removal) and come before any DeviceStateChanged
 * they cause. A channel that appears and ends within one turn is announced
 * twice, as it is added and as it is removed.
 */
export class EndpointSnapshots {
  /** Channel ids of each endpoint as published, in arrival order, by lower-case key. */
  private readonly ids = new Map<string, Set<string>>();
  /** Ended channels whose removal was published (an ended channel may be written again later). */
  private readonly gone = new WeakSet<Channel>();

  constructor(
    private readonly eng: EndpointSnapshotEngine,
    /** The endpoint's state now (its registrations). */
    private readonly state: (e: EndpointFixture) => EndpointState,
  ) {
    // Channels restored after a restart are the endpoints' channels from the start; nothing is announced for them.
    for (const ch of eng.all()) {
      const e = this.fixtureOf(ch);
      if (e) this.of(e).add(ch.id);
    }
    eng.onCommitted((changed) => this.settle(changed));
  }

  /** ARI's view of the endpoint: its state and its channels. */
  model(e: EndpointFixture): AriEndpoint {
    return { technology: e.tech, resource: e.resource, state: this.state(e), channel_ids: [...this.of(e)] };
  }

  /** Publishes the endpoint's snapshot: EndpointStateChange to the apps that hear about the endpoint. */
  announce(e: EndpointFixture): void {
    const to = endpointRecipients(this.eng.apps, e);
    if (to.size) this.eng.emit('EndpointStateChange', { endpoint: this.model(e) }, to);
  }

  private settle(changed: readonly Channel[]): void {
    for (const ch of changed) {
      if (this.gone.has(ch)) continue;
      const e = this.fixtureOf(ch);
      const ids = this.ids.get(ch.d.endpoint.toLowerCase());
      if (e && !ids?.has(ch.id)) {
        this.of(e).add(ch.id);
        this.announce(e);
      }
      if (ch.d.ended === null) continue;
      this.gone.add(ch);
      // An endpoint deleted while the call went on forgets the channel all the same, silently.
      if (this.ids.get(ch.d.endpoint.toLowerCase())?.delete(ch.id) && e) this.announce(e);
    }
  }

  private fixtureOf(ch: Channel): EndpointFixture | undefined {
    return this.eng.fixtures.endpoints.get(ch.d.endpoint.toLowerCase());
  }

  private of(e: EndpointFixture): Set<string> {
    const key = e.key.toLowerCase();
    let ids = this.ids.get(key);
    if (!ids) this.ids.set(key, (ids = new Set()));
    return ids;
  }
}
