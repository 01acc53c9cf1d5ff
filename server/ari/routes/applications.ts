import * as op from '../../../protocol/ari/operations/applications.js';
import { badRequest, notFound, unprocessable } from '../../errors.js';
import type { AriBinder } from '../http/bind.js';
import type { StasisApp } from '../apps.js';
import type { Telephony } from '../telephony.js';

export function mountApplications(b: AriBinder, t: Pick<Telephony, 'engine' | 'bridges' | 'devices'>): void {
  const { engine, bridges, devices } = t;
  const model = (app: StasisApp) => ({
    name: app.name,
    channel_ids: [...app.channels],
    bridge_ids: bridges.all().filter((b) => (b.subs.get(app.name) ?? 0) > 0).map((b) => b.d.id),
    endpoint_ids: [...app.endpoints],
    device_names: [...app.devices],
    events_allowed: app.allowed,
    events_disallowed: app.disallowed,
  });
  const find = (name: string) => {
    const app = engine.apps.get(name);
    if (!app) throw notFound('Application not found');
    return app;
  };

  /** Parses `scheme:id` sources; unknown schemes are 400, missing sources 422 (Asterisk's order). */
  function sources(list: string[]) {
    return list.map((src) => {
      const i = src.indexOf(':');
      const scheme = i > 0 ? src.slice(0, i) : '';
      const id = src.slice(i + 1);
      if (scheme === 'channel') {
        const ch = engine.find(id);
        return { kind: 'channel' as const, id, ch };
      }
      if (scheme === 'endpoint') {
        const key = id.toLowerCase();
        const exists = key.includes('/') ? engine.fixtures.endpoints.has(key) : [...engine.fixtures.endpoints.values()].some((e) => e.tech.toLowerCase() === key);
        return { kind: 'endpoint' as const, id, exists };
      }
      if (scheme === 'bridge') return { kind: 'bridge' as const, id, bridge: bridges.find(id) };
      // Any device name will do (Asterisk subscribes to the name's topic whether or not a state exists); there is no mailbox: scheme.
      if (scheme === 'deviceState') return { kind: 'device' as const, id };
      throw badRequest('Invalid event source URI scheme');
    });
  }

  b.mount(op.listApplications, () => engine.apps.list().map(model));
  b.mount(op.getApplication, (a) => model(find(a.applicationName)));
  b.mount(op.subscribe, (a) => {
    const app = find(a.applicationName);
    const list = sources(a.eventSource);
    for (const s of list) {
      if ((s.kind === 'channel' && !s.ch) || (s.kind === 'endpoint' && !s.exists) || (s.kind === 'bridge' && !s.bridge)) throw unprocessable('Event source does not exist');
    }
    devices.checkRoom(app, list.filter((s) => s.kind === 'device').map((s) => s.id));
    for (const s of list) {
      if (s.kind === 'channel') engine.subscribe(s.ch!, app.name);
      else if (s.kind === 'endpoint') engine.subscribeEndpoint(app.name, s.id);
      else if (s.kind === 'bridge') bridges.addSub(s.bridge!, app.name);
      else devices.subscribe(app.name, s.id);
    }
    return model(app);
  });
  b.mount(op.unsubscribe, (a) => {
    const app = find(a.applicationName);
    const list = sources(a.eventSource);
    // Asterisk answers one 422 for a source that does not exist and for one the app is not subscribed to.
    for (const s of list) {
      const subscribed =
        s.kind === 'channel' ? !!s.ch && s.ch.d.subs[app.name]! > 0
        : s.kind === 'endpoint' ? app.endpoints.has(s.id)
        : s.kind === 'bridge' ? (s.bridge?.subs.get(app.name) ?? 0) > 0
        : devices.isSubscribed(app, s.id);
      if (!subscribed) throw unprocessable('Event source was not subscribed to');
    }
    for (const s of list) {
      if (s.kind === 'channel') engine.unsubscribe(s.ch!, app.name);
      else if (s.kind === 'endpoint') engine.unsubscribeEndpoint(app.name, s.id);
      else if (s.kind === 'bridge') bridges.dropSub(s.bridge!, app.name);
      else devices.unsubscribe(app.name, s.id);
    }
    return model(engine.apps.get(app.name) ?? app);
  });
  b.mount(op.filter, (a) => {
    const app = find(a.applicationName);
    engine.filters.set(app, a.filter);
    return model(app);
  });
}
