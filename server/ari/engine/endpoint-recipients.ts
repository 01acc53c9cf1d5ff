import type { AppRegistry } from '../apps.js';
import type { EndpointFixture } from '../fixtures.js';

/**
 * The applications that hear about an endpoint itself (its state, its
 * contacts, its text messages): those subscribed to it (endpoint:PJSIP/alice),
 * to its technology (endpoint:PJSIP), or to everything. Names match without
 * regard to case, as channel events for endpoint subscribers do.
 */
export function endpointRecipients(apps: AppRegistry, e: EndpointFixture): Set<string> {
  const to = new Set(apps.subscribedToAll);
  const key = e.key.toLowerCase();
  const tech = e.tech.toLowerCase();
  for (const app of apps.list()) {
    for (const sub of app.endpoints) {
      const s = sub.toLowerCase();
      if (s === key || s === tech) to.add(app.name);
    }
  }
  return to;
}
