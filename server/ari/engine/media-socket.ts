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
  /**
   * The socket ended: `peer` when the application closed it with a close
   * frame, `failed` when it broke (the connection dropped without one, a
   * message over the size limit, or an application that stopped reading).
   */
  closed(how: 'peer' | 'failed'): void;
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

/** What a driver asks ChannelFactory to build for one of its channels. */
export interface DrivenChannel {
  tech: string;
  /** The channel's endpoint (`WebSocket/<connection>`) and whole name. */
  endpoint: string;
  name: string;
  /** The channel's one format. */
  formats: string[];
  /** Sets the driver's state (its variables, its session) on the new record. */
  setup(ch: Channel): void;
}

/**
 * The port through which originate and create make channels of a driver's
 * own technology (`WebSocket/<connection>[/<options>]`), keeping the channel
 * factory from importing the drivers.
 */
export interface DriverChannels {
  /** Whether a technology (any case) is a driver's. */
  owns(tech: string): boolean;
  /** Checks a dial string's resource before anything is made: a 400 when it cannot be dialed. */
  check(resource: string): void;
  /** Builds the channel through `build` and attaches the driver's state to it; `formats` are the caller's. */
  allocate(resource: string, formats: string[], build: (p: DrivenChannel) => Channel): Channel;
}
