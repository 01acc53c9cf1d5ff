/**
 * MEDIA_WEBSOCKET_CLIENTS: the websocket_client connections an externalMedia
 * channel with transport=websocket and connection_type=client may name in
 * external_host. A JSON object, connection name to
 * `{"uri": "ws://host:port/path", "protocols": "media", "username": "…",
 * "password": "…", "connection_timeout": 500}` (only uri is required;
 * connection_timeout in milliseconds, default 500, as websocket_client.conf).
 */

/** One websocket_client connection, as websocket_client.conf describes one. */
export interface MediaClientConfig {
  /** ws:// or wss:// address; dial options' v(...) parameters are added to its query. */
  uri: string;
  /** Subprotocols offered. */
  protocols: string[];
  /** Basic credentials sent with the upgrade. */
  username?: string | undefined;
  password?: string | undefined;
  /** How long the connection (and its upgrade) may take, ms. */
  connectionTimeoutMs: number;
}

const KEYS = new Set(['uri', 'protocols', 'username', 'password', 'connection_timeout']);

/** Parses the setting; throws an Error naming what is wrong. */
export function parseMediaClients(text: string): Map<string, MediaClientConfig> {
  const out = new Map<string, MediaClientConfig>();
  if (!text.trim()) return out;
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch {
    throw new Error('MEDIA_WEBSOCKET_CLIENTS must be a JSON object');
  }
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) throw new Error('MEDIA_WEBSOCKET_CLIENTS must be a JSON object');
  for (const [name, raw] of Object.entries(obj as Record<string, unknown>)) {
    const where = `MEDIA_WEBSOCKET_CLIENTS.${name}`;
    if (!/^[\w.-]{1,64}$/.test(name) || name === 'INCOMING') throw new Error(`${where}: connection names are 1 to 64 letters, digits, "_", "-" or "." (and not INCOMING)`);
    if (raw === null || typeof raw !== 'object') throw new Error(`${where} must be an object`);
    const c = raw as Record<string, unknown>;
    for (const k of Object.keys(c)) if (!KEYS.has(k)) throw new Error(`${where}: unknown key ${k}`);
    let uri: URL | undefined;
    try {
      uri = typeof c.uri === 'string' ? new URL(c.uri) : undefined;
    } catch {
      uri = undefined;
    }
    if (!uri || !['ws:', 'wss:'].includes(uri.protocol)) throw new Error(`${where}.uri must be a ws:// or wss:// URL`);
    const str = (k: string) => {
      if (c[k] !== undefined && typeof c[k] !== 'string') throw new Error(`${where}.${k} must be a string`);
      return c[k] as string | undefined;
    };
    const timeout = c.connection_timeout ?? 500;
    if (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout < 1 || timeout > 600_000) throw new Error(`${where}.connection_timeout must be milliseconds from 1 to 600000`);
    out.set(name, {
      uri: uri.toString(),
      protocols: (str('protocols') ?? '').split(',').map((p) => p.trim()).filter(Boolean),
      username: str('username'),
      password: str('password'),
      connectionTimeoutMs: timeout,
    });
  }
  return out;
}
