import * as assert from 'uvu/assert';
import type WebSocket from 'ws';
import type { TestServer } from './server.js';

// Slow-consumer tests: a socket that stops reading, and a burst of large events that backs the
// server's writes up behind it (1 MiB variable values; the server must allow them:
// ARI_MAX_BODY_BYTES 2 MiB, ARI_MAX_VALUE_BYTES 1 MiB + 64).

/** The environment a server needs for `setBigVariables`, with WS_MAX_BUFFERED_BYTES at 64 KiB. */
export const BACKLOG_ENV = { WS_MAX_BUFFERED_BYTES: '65536', ARI_MAX_BODY_BYTES: String(2 * 1024 * 1024), ARI_MAX_VALUE_BYTES: String(1024 * 1024 + 64) };

/** How many 1 MiB values `setBigVariables` sets: 32 MiB, well past the loopback socket buffers. */
export const BACKLOG_EVENTS = 32;

const rawSocket = (ws: WebSocket) => (ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;

/** The client stops reading: the server's writes back up in the kernel, then in its own buffer. */
export const stopReading = (ws: WebSocket) => rawSocket(ws).pause();
/** The client reads again. */
export const readAgain = (ws: WebSocket) => rawSocket(ws).resume();

/** Sets BIG on the channel BACKLOG_EVENTS times to `<i>:<1 MiB>` (one ChannelVarset each), asserting each 204. */
export async function setBigVariables(t: TestServer, channelId: string): Promise<void> {
  const big = 'v'.repeat(1024 * 1024);
  for (let i = 0; i < BACKLOG_EVENTS; i++) {
    const r = await t.http('POST', `/ari/channels/${channelId}/variable`, { json: { variable: 'BIG', value: `${i}:${big}` } });
    assert.is(r.status, 204);
  }
}
