import type { AriUser } from '../../config.js';
import type { Logger } from '../../log.js';
import type { PerCallApps } from '../apps.js';
import type { Calls } from '../engine/calls.js';
import { CAUSE } from '../engine/causes.js';
import type { DialplanStarter } from '../engine/dialplan-starter.js';
import type { Engine } from '../engine/engine.js';
import { enterPerCallStasis } from '../engine/per-call-stasis.js';
import { splitArgs } from '../engine/variables.js';
import type { InvokeAsUser } from '../rest-ws/run-rest-call.js';
import type { WebSocketClientPolicy } from '../websocket-connector.js';
import { dialWebSocket } from './dial-websocket.js';
import type { OutboundConnectionConfig } from './outbound-config.js';
import { OutboundSession } from './outbound-session.js';

/** What the outbound WebSockets are built from. */
export interface OutboundWebsocketsOptions {
  connections: OutboundConnectionConfig[];
  engine: Engine;
  /** Runs a restored channel's Stasis() again (it was waiting for its per-call connection at the last stop). */
  dialplan: DialplanStarter;
  /** Puts a restored originate or create channel that was waiting for its per-call connection in its app, or hangs it up. */
  calls: Pick<Calls, 'enterStasis' | 'hangup'>;
  invoke: InvokeAsUser;
  /** ARI_USERS: each connection's local_ari_user is one of them (checked when the configuration is read). */
  users: AriUser[];
  /** Where the connections may go (WEBSOCKET_CLIENT_ALLOW_LOCAL_NETWORKS). */
  policy: WebSocketClientPolicy;
  /** WS_MAX_PAYLOAD and WS_MAX_BUFFERED_BYTES, as for inbound event sockets. */
  maxPayload: number;
  maxBufferedBytes: number;
  log: Logger;
  /** Reads the configuration again from where it came from (on a res_ari reload); throws when it no longer reads. */
  reread: () => OutboundConnectionConfig[];
}

/**
 * ARI outbound WebSockets (README, "ARI outbound WebSockets"): persistent
 * connections register their applications at once and connect (retrying
 * for as long as the server runs); per_call_config connections are opened
 * by Stasis() for one channel (the engine asks through PerCallApps) and
 * closed when the channel leaves Stasis.
 */
export function createOutboundWebsockets(opts: OutboundWebsocketsOptions) {
  const { engine, log } = opts;
  const dial = (cfg: OutboundConnectionConfig, signal: AbortSignal) =>
    dialWebSocket(cfg, { policy: opts.policy, maxPayload: opts.maxPayload, signal });
  const deps = (cfg: OutboundConnectionConfig) => ({
    engine, invoke: opts.invoke, dial, log, maxBufferedBytes: opts.maxBufferedBytes,
    user: opts.users.find((u) => u.name === cfg.localAriUser)!,
  });

  /** Persistent sessions by connection name. */
  const persistent = new Map<string, OutboundSession>();
  const perCallConfig = new Map<string, OutboundConnectionConfig>();
  /** Open per-call sessions by their `<app>:<channel name>` application. */
  const perCall = new Map<string, OutboundSession>();
  let current: OutboundConnectionConfig[] = [];
  let closed = false;

  const startPersistent = (cfg: OutboundConnectionConfig) => {
    const session = new OutboundSession(cfg, cfg.apps, cfg.id, deps(cfg));
    // As Asterisk: the apps exist from start-up, whether or not the application's server is up yet.
    session.register();
    persistent.set(cfg.id, session);
    void session.connect();
  };

  /**
   * Makes `next` the configuration in force, applying only the difference:
   * persistent connections that are gone say ApplicationUnregistered and
   * close with 1000, changed ones are updated in place (see
   * OutboundSession.reconfigure), new ones start; per-call entries take
   * effect for the next Stasis() (connections of calls under way stay until
   * their calls leave).
   */
  const apply = (next: OutboundConnectionConfig[]) => {
    const byId = new Map(next.filter((c) => c.connectionType === 'persistent').map((c) => [c.id, c]));
    for (const [id, session] of persistent) {
      if (byId.has(id)) continue;
      session.stop(1000, true, 'Connection removed');
      persistent.delete(id);
    }
    const changed = [...persistent].flatMap(([id, session]) => {
      const cfg = byId.get(id)!;
      const before = current.find((c) => c.id === id);
      return JSON.stringify(before) === JSON.stringify(cfg) ? [] : [{ session, cfg }];
    });
    for (const { session, cfg } of changed) session.release(cfg);
    for (const { session, cfg } of changed) session.reconfigure(cfg, deps(cfg).user);
    for (const cfg of byId.values()) if (!persistent.has(cfg.id)) startPersistent(cfg);
    perCallConfig.clear();
    for (const cfg of next) if (cfg.connectionType === 'per_call_config') for (const app of cfg.apps) perCallConfig.set(app, cfg);
    current = next;
  };
  apply(opts.connections);

  const perCallApps: PerCallApps = {
    serves: (app) => perCallConfig.has(app),
    async open(app, instance) {
      const cfg = perCallConfig.get(app);
      if (!cfg || perCall.has(instance)) return false;
      const session = new OutboundSession(cfg, [instance], `${cfg.id}:${instance}`, deps(cfg));
      perCall.set(instance, session);
      const ok = await session.connect(cfg.reconnectAttempts);
      // Stopping: the channel is left as stored, waiting, rather than failed by an attempt we cut short.
      if (closed) return new Promise<boolean>(() => {});
      if (!ok) {
        session.stop(1000);
        if (perCall.get(instance) === session) perCall.delete(instance);
      }
      return ok && perCall.get(instance) === session;
    },
    done(instance) {
      const session = perCall.get(instance);
      perCall.delete(instance);
      session?.stop(1000);
    },
  };
  // Always served: a reload may add per-call entries later.
  engine.apps.servePerCall(perCallApps);
  // After a restart: channels in a per-call application get their connection again (they wait for it
  // as for any application; nothing of the call is replayed on it), and a Stasis() that was waiting for
  // its connection at the stop runs again.
  for (const ch of engine.all()) {
    const { stasis, pbx, dialplan, timers, perCallWait } = ch.d;
    if (stasis?.perCall && perCallConfig.has(stasis.perCall)) void perCallApps.open(stasis.perCall, stasis.app);
    const waited = !stasis && pbx && dialplan.appName === 'Stasis' && !timers.some((t) => t.kind === 'pbx');
    if (waited && perCallConfig.has(splitArgs(dialplan.appData)[0]?.trim() ?? '')) opts.dialplan.startSoon(ch, dialplan.context, dialplan.exten, dialplan.priority);
    // An originate or create was waiting for its connection: it asks again, and is hung up as it would
    // have been (Normal Clearing) when none comes or nothing serves the app any more.
    if (perCallWait && !stasis && !pbx && ch.d.ended === null) {
      const fail = () => opts.calls.hangup(ch, { by: 'none', cause: CAUSE.NORMAL });
      if (!enterPerCallStasis(engine, (...a) => opts.calls.enterStasis(...a), ch, perCallWait.app, perCallWait.args, () => true, fail)) fail();
    }
  }

  return {
    /**
     * A reload of res_ari: the configuration is read again from its source
     * and the difference applied. A configuration that no longer reads
     * leaves everything as it is (logged), as a bad ari.conf does in Asterisk.
     */
    reload(): void {
      if (closed) return;
      let next: OutboundConnectionConfig[];
      try {
        next = opts.reread();
      } catch (err) {
        log.warn({ err: (err as Error).message }, 'outbound websocket configuration not reloaded; the connections stay as they were');
        return;
      }
      apply(next);
      log.info({ connections: next.map((c) => c.id) }, 'outbound websocket configuration reloaded');
    },

    /** Stops every session: persistent ones say ApplicationUnregistered first; all close with 1001. */
    close(): void {
      closed = true;
      for (const s of persistent.values()) s.stop(1001, true);
      for (const s of perCall.values()) s.stop(1001);
      perCall.clear();
    },
  };
}

/** The outbound WebSockets, as created by `createOutboundWebsockets`. */
export type OutboundWebsockets = ReturnType<typeof createOutboundWebsockets>;
