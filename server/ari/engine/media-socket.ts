import type { Channel } from './channel.js';

/**
 * One open media WebSocket as the engine sees it; the WebSocket library
 * stays outside the engine (server/ari/media-ws-socket.ts adapts it).
 */
export interface MediaSocket {
  sendText(text: string): void;
  sendBinary(data: Buffer): void;
  /** Closes with a WebSocket status code (1000 normal). */
  close(code: number): void;
}

/** What a media socket reports to its channel. */
export interface MediaSocketHandlers {
  text(data: string): void;
  binary(data: Buffer): void;
  /** The socket closed (by the application, or cut off). */
  closed(): void;
}

/** Opens outgoing media sockets to the configured websocket_client connections. */
export interface MediaConnector {
  /** Why the named connection cannot be used (unknown, or its address is refused); undefined when it can. */
  refusal(name: string): string | undefined;
  /** Connects; resolves once the socket is open (handlers already attached), rejects when it cannot be opened. */
  connect(name: string, uriParams: string | undefined, handlers: MediaSocketHandlers): Promise<MediaSocket>;
}

/**
 * The port through which channel lifecycles let a channel's own driver
 * dial it (a media WebSocket answers when its socket opens), keeping
 * calls.ts from importing the drivers.
 */
export interface ChannelDriver {
  /** Starts dialing a channel this driver owns; false when the channel is not one of its own. */
  dial(ch: Channel): boolean;
}
