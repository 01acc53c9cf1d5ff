import type { EndpointState } from '../../../protocol/ari/models/endpoint.js';
import type { EndpointFixture } from '../fixtures.js';
import type { AriEndpoint } from './ari-models.js';
import type { Channel } from './channel.js';

/** ARI's view of a fixture endpoint, with the live channels to or from it; `state` is its registration state (the fixture's when not given). */
export function endpointModel(e: EndpointFixture, live: Iterable<Channel>, state: EndpointState = e.state): AriEndpoint {
  const channelIds: string[] = [];
  for (const ch of live) if (ch.d.endpoint === e.key) channelIds.push(ch.id);
  return { technology: e.tech, resource: e.resource, state, channel_ids: channelIds };
}
