import { readFileSync } from 'node:fs';
import { parseOutboundConnections, type OutboundConnectionConfig } from './outbound-config.js';

/**
 * Where the outbound connections are configured: ARI_OUTBOUND_WEBSOCKETS
 * (JSON in the environment, fixed for the process's life) or
 * ARI_OUTBOUND_WEBSOCKETS_FILE (a file holding the same JSON, read at start
 * and again whenever res_ari is reloaded).
 */
export interface OutboundSource {
  text: string | undefined;
  file: string | undefined;
}

/**
 * Reads the connections from their source against the ARI users. Throws an
 * Error whose message starts with the setting's name and never shows a
 * value (the entries hold passwords).
 */
export function readOutboundConnections(src: OutboundSource, users: readonly string[]): OutboundConnectionConfig[] {
  if (src.text !== undefined && src.file !== undefined) throw new Error('ARI_OUTBOUND_WEBSOCKETS and ARI_OUTBOUND_WEBSOCKETS_FILE are both set; use one');
  const name = src.file !== undefined ? 'ARI_OUTBOUND_WEBSOCKETS_FILE' : 'ARI_OUTBOUND_WEBSOCKETS';
  let text = src.text ?? '{}';
  if (src.file !== undefined) {
    try {
      text = readFileSync(src.file, 'utf8');
    } catch (err) {
      throw new Error(`invalid ${name}: cannot read the file (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  try {
    return parseOutboundConnections(text, users);
  } catch (err) {
    throw new Error(`invalid ${name}: ${(err as Error).message}`);
  }
}

/**
 * WEBSOCKET_CLIENT_ALLOW_LOCAL_NETWORKS, the one switch for every WebSocket
 * the server opens, with the names it replaces still read
 * (ARI_OUTBOUND_ALLOW_LOCAL_NETWORKS, MEDIA_WEBSOCKET_ALLOW_LOOPBACK). Set
 * names must agree: one switch cannot be on for one kind of connection and
 * off for the other, and silently picking one would widen or narrow the
 * other without a word.
 */
export function localNetworksSetting(values: Record<string, boolean | undefined>): boolean {
  const set = Object.entries(values).filter((e): e is [string, boolean] => e[1] !== undefined);
  if (set.some(([, on]) => on !== set[0]![1])) {
    throw new Error(`${set.map(([k]) => k).join(', ')} are one setting now (WEBSOCKET_CLIENT_ALLOW_LOCAL_NETWORKS) and disagree; set only WEBSOCKET_CLIENT_ALLOW_LOCAL_NETWORKS`);
  }
  return set[0]?.[1] ?? false;
}
