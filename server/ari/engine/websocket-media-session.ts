import type { Codec } from '../media/codec.js';
import { MediaFrameQueue } from '../media/media-frame-queue.js';
import type { FrameConsumer } from '../media/media-clock.js';
import type { ControlFormat, DialOptions, EventContext, MediaDirection } from '../media/ws-media-protocol.js';
import type { Channel } from './channel.js';
import type { MediaSocket } from './media-socket.js';

/** Who gets a session's media ticks (the WebSocketMedia that owns it). */
export interface TickSink {
  onTick(s: WebSocketSession, tick: number): void;
}

/** One channel's media socket: its queue of received audio, its encoder, its socket once open. */
export class WebSocketSession implements FrameConsumer {
  socket: MediaSocket | null = null;
  readonly queue: MediaFrameQueue;
  readonly encoder: ReturnType<Codec['encoder']>;
  readonly ctx: EventContext;
  /** Which way audio flows, from the application's side (SET_MEDIA_DIRECTION, `d()`). */
  direction: MediaDirection;
  /** The received frame playing at `tick` (null: silence), taken from the queue once per tick. */
  tick = -1;
  current: Int16Array | null = null;
  dtmfSent = 0;
  closed = false;

  constructor(
    readonly owner: TickSink,
    readonly ch: Channel,
    readonly connectionId: string,
    /** The websocket_client connection we dial out to; null when the application connects to us. */
    readonly client: string | null,
    readonly codec: Codec,
    readonly frameSize: number,
    readonly opts: DialOptions,
    format: ControlFormat,
  ) {
    this.queue = new MediaFrameQueue(frameSize, opts.passthrough);
    this.encoder = codec.encoder();
    this.ctx = { format, channelId: ch.id };
    this.direction = opts.direction ?? 'both';
  }

  onFrame(tick: number): void {
    this.owner.onTick(this, tick);
  }
}
