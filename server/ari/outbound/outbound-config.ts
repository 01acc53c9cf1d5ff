import * as v from 'valibot';

/**
 * ARI outbound WebSockets (Asterisk 20.15, 21.10, 22.5): connections the
 * server opens to an application's own WebSocket server. One entry holds
 * what Asterisk splits between an `outbound_websocket` object of ari.conf
 * (apps, subscribe_all, local_ari_user) and the `websocket_client` object of
 * websocket_client.conf it names (uri, credentials, connection type and
 * retry timing), with the same option names. Read from ARI_OUTBOUND_WEBSOCKETS
 * (README, "ARI outbound WebSockets").
 */
export interface OutboundConnectionConfig {
  /** The connection's name (the key of its entry). */
  id: string;
  /** ws:// or wss://, without credentials. */
  uri: string;
  /** The WebSocket subprotocol offered on the upgrade. */
  protocols: string;
  /** Basic credentials sent on the upgrade (both empty: no Authorization header). */
  username: string;
  password: string;
  /** `persistent`: one connection from start-up on; `per_call_config`: one per channel that runs Stasis() for one of the apps. */
  connectionType: 'persistent' | 'per_call_config';
  /** Stasis applications this connection serves (no other connection may name them). */
  apps: string[];
  /** As subscribeAll=true on an inbound event socket. */
  subscribeAll: boolean;
  /** The ARI user (of ARI_USERS) the REST requests sent over the connection run as. */
  localAriUser: string;
  /** Wall-clock milliseconds: one attempt's limit, the wait between attempts. */
  connectionTimeout: number;
  reconnectInterval: number;
  /** Attempts before a per-call connection gives up (Stasis() fails); a persistent one keeps trying and logs once per this many failures. */
  reconnectAttempts: number;
  /** wss:// only: a PEM file of CA certificates to trust besides the system's, and whether the server's certificate and its name are checked. */
  tls: { caListFile: string | undefined; verifyServerCert: boolean; verifyServerHostname: boolean };
}

/** Asterisk's limit on application names; a per-call app gets `:<channel name>` added, so it is not held to it. */
const MAX_APP_NAME = 73;

const ms = (name: string, min: number) => v.optional(v.pipe(v.number(`${name} must be a number of milliseconds`), v.integer(`${name} must be an integer`), v.minValue(min, `${name} must be at least ${min}`), v.maxValue(3_600_000, `${name} must be at most 3600000`)));

/** An app list as a JSON array or as ari.conf writes it (comma-separated). */
const appList = v.pipe(
  v.union([v.array(v.string()), v.string()], 'apps must be a list of application names'),
  v.transform((x) => (Array.isArray(x) ? x : x.split(',')).map((s) => s.trim()).filter(Boolean)),
  v.check((list) => list.length > 0, 'apps must name at least one application'),
  v.check((list) => list.every((a) => a.length <= MAX_APP_NAME && !a.includes(',')), `application names are at most ${MAX_APP_NAME} characters, without commas`),
);

const uri = v.pipe(
  v.string('uri is required'),
  v.check((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === 'ws:' || u.protocol === 'wss:') && u.hostname !== '';
    } catch {
      return false;
    }
  }, 'uri must be a ws:// or wss:// address'),
  // Credentials go in username/password, where they are kept out of logs; a uri is logged.
  v.check((s) => !new URL(s).username && !new URL(s).password, 'uri must not carry credentials (use username and password)'),
);

const Entry = v.strictObject({
  type: v.optional(v.picklist(['outbound_websocket'], 'type must be outbound_websocket')),
  uri,
  protocols: v.optional(v.pipe(v.string(), v.regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'protocols must be one subprotocol token')), 'ari'),
  username: v.optional(v.string(), ''),
  password: v.optional(v.string(), ''),
  connection_type: v.picklist(['persistent', 'per_call_config'], 'connection_type must be persistent or per_call_config'),
  apps: appList,
  subscribe_all: v.optional(v.boolean('subscribe_all must be true or false'), false),
  local_ari_user: v.pipe(v.string('local_ari_user is required'), v.minLength(1, 'local_ari_user is required')),
  connection_timeout: ms('connection_timeout', 1),
  reconnect_interval: ms('reconnect_interval', 1),
  reconnect_attempts: v.optional(v.pipe(v.number(), v.integer('reconnect_attempts must be an integer'), v.minValue(1, 'reconnect_attempts must be at least 1'), v.maxValue(1_000_000))),
  // TLS, as websocket_client.conf names it; a wss:// uri is what turns it on.
  tls_enabled: v.optional(v.boolean('tls_enabled must be true or false')),
  ca_list_file: v.optional(v.pipe(v.string(), v.minLength(1, 'ca_list_file must be a path'))),
  verify_server_cert: v.optional(v.boolean('verify_server_cert must be true or false'), true),
  verify_server_hostname: v.optional(v.boolean('verify_server_hostname must be true or false'), true),
});

const Connections = v.record(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.-]{1,64}$/, 'connection names are letters, digits, _ . - (at most 64)')), Entry);

/** Asterisk's defaults (websocket_client.conf). */
const DEFAULTS = { connectionTimeout: 500, reconnectInterval: 500, reconnectAttempts: 4 };

/**
 * Parses ARI_OUTBOUND_WEBSOCKETS: a JSON object of connections by name.
 * Throws an Error whose message names the connection and the option, never
 * a value (the entries hold passwords).
 */
export function parseOutboundConnections(text: string, ariUsers: readonly string[]): OutboundConnectionConfig[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('must be a JSON object of connections by name');
  }
  const r = v.safeParse(Connections, json);
  if (!r.success) {
    const issue = r.issues[0]!;
    const at = issue.path?.map((p) => String(p.key)).join('.');
    throw new Error(`${at ? `${at}: ` : ''}${issue.message}`);
  }
  const out: OutboundConnectionConfig[] = [];
  const owner = new Map<string, string>();
  for (const [id, e] of Object.entries(r.output)) {
    if (!ariUsers.includes(e.local_ari_user)) throw new Error(`${id}.local_ari_user: not a user of ARI_USERS`);
    const secure = e.uri.startsWith('wss:');
    if (e.tls_enabled !== undefined && e.tls_enabled !== secure) throw new Error(`${id}.tls_enabled: ${secure ? 'a wss:// uri always uses TLS' : 'TLS needs a wss:// uri'}`);
    for (const app of e.apps) {
      // As Asterisk: one connection per application.
      if (owner.has(app)) throw new Error(`${id}.apps: ${app} is already served by ${owner.get(app)}`);
      owner.set(app, id);
    }
    out.push({
      id,
      uri: e.uri,
      protocols: e.protocols,
      username: e.username,
      password: e.password,
      connectionType: e.connection_type,
      apps: e.apps,
      subscribeAll: e.subscribe_all,
      localAriUser: e.local_ari_user,
      connectionTimeout: e.connection_timeout ?? DEFAULTS.connectionTimeout,
      reconnectInterval: e.reconnect_interval ?? DEFAULTS.reconnectInterval,
      reconnectAttempts: e.reconnect_attempts ?? DEFAULTS.reconnectAttempts,
      tls: { caListFile: e.ca_list_file, verifyServerCert: e.verify_server_cert, verifyServerHostname: e.verify_server_hostname },
    });
  }
  return out;
}
