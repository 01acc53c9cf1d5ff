import type { VariableInput } from '../../../protocol/operation.js';
import { badRequest } from '../../errors.js';
import type { Codec } from '../media/codec.js';
import { MediaFrameQueue } from '../media/media-frame-queue.js';
import type { FrameConsumer, MediaClock } from '../media/media-clock.js';
import { FRAME_MS, FRAME_SAMPLES } from '../media/pcm.js';
import {
  bareEvent, correlatedEvent, dtmfEvent, errorEvent, mediaStartEvent, parseCommand, parseDialOptions, statusEvent,
  type ControlFormat, type DialOptions, type EventContext,
} from '../media/ws-media-protocol.js';
import type { AudioRouter } from './audio.js';
import { splitAppArgs } from './call-requests.js';
import type { Calls } from './calls.js';
import type { Channel } from './channel.js';
import type { Engine } from './engine.js';
import type { MediaConnector, MediaSocket, MediaSocketHandlers } from './media-socket.js';

/** What externalMedia hands over once its shared checks passed. */
export interface WebSocketMediaRequest {
  channelId?: string | undefined;
  app: string;
  variables?: VariableInput[] | undefined;
  external_host?: string | undefined;
  connection_type: string;
  data?: string | undefined;
  transport_data?: string | undefined;
}

/** The dial string's connection for channels the application connects to. */
const INCOMING = 'INCOMING';
/** Originate's default: a media socket not open (and answered) within 30 s fails the channel. */
const ANSWER_TIMEOUT_MS = 30_000;
/** WebSocket status codes we close with: normal, and going away (the channel failed under it). */
const CLOSE_NORMAL = 1000;
const CLOSE_GOING_AWAY = 1001;
/** Q.850 causes: the application hung up, the client connection could not be made. */
const CAUSE_NORMAL = 16;
const CAUSE_NO_ROUTE = 3;
const CAUSE_FAILURE = 38;

/** One channel's media socket: its queue of received audio, its encoder, its socket once open. */
class Session implements FrameConsumer {
  socket: MediaSocket | null = null;
  readonly queue: MediaFrameQueue;
  readonly encoder: ReturnType<Codec['encoder']>;
  readonly ctx: EventContext;
  /** The received frame playing at `tick` (null: silence), taken from the queue once per tick. */
  tick = -1;
  current: Int16Array | null = null;
  dtmfSent = 0;
  closed = false;

  constructor(
    readonly owner: WebSocketMedia,
    readonly ch: Channel,
    readonly connectionId: string,
    readonly client: string | null,
    readonly codec: Codec,
    readonly frameSize: number,
    readonly opts: DialOptions,
    format: ControlFormat,
  ) {
    this.queue = new MediaFrameQueue(frameSize, opts.passthrough);
    this.encoder = codec.encoder();
    this.ctx = { format, channelId: ch.id };
  }

  onFrame(tick: number): void {
    this.owner.onTick(this, tick);
  }
}

/**
 * externalMedia over a media WebSocket (chan_websocket). The channel is
 * made Down and dialed like an originate into the app: with connection_type
 * server the application connects to /media/<MEDIA_WEBSOCKET_CONNECTION_ID>,
 * with client we connect to the websocket_client connection external_host
 * names. When the socket opens the application gets MEDIA_START and the
 * channel is answered (unless transport_data holds `n`), which puts it in
 * the app. From then on, every 20 ms the channel's outbound audio goes to
 * the socket as one binary frame in the channel's format, and one frame of
 * what the application sent (MediaFrameQueue) is its inbound audio, or
 * silence. Text frames are commands (parseCommand) and our events.
 */
export class WebSocketMedia {
  private readonly sessions = new Map<Channel, Session>();
  private readonly incoming = new Map<string, Session>();

  constructor(
    private readonly eng: Engine,
    private readonly calls: Calls,
    private readonly router: AudioRouter,
    private readonly clock: MediaClock,
    private readonly connector: MediaConnector,
    /** The control message format when transport_data does not choose one (chan_websocket.conf's). */
    private readonly defaultFormat: ControlFormat = 'plain-text',
  ) {
    eng.onHangup((ch) => this.close(ch));
  }

  /** Creates the channel; the 200 shows it Down with MEDIA_WEBSOCKET_CONNECTION_ID and MEDIA_WEBSOCKET_OPTIMAL_FRAME_SIZE in channelvars. */
  create(req: WebSocketMediaRequest, codec: Codec): Channel {
    const opts = parseDialOptions(req.transport_data);
    if (!opts) throw badRequest(`'WebSocket' channel options '${req.transport_data}' parse error`);
    const server = req.connection_type === 'server';
    if (server && opts.uriParams !== undefined) throw badRequest('URI parameters are not allowed for \'WebSocket/INCOMING\' channels');
    const dialName = server ? INCOMING : req.external_host!;
    if (!server) {
      const refused = this.connector.refusal(dialName);
      if (refused) throw badRequest(refused);
    }
    const connectionId = server ? this.eng.ids.uuid() : dialName;
    const frameSize = (codec.rate * FRAME_MS * codec.bytesPerSample) / 1000;
    let session: Session | undefined;
    const ch = this.calls.createInternal({
      id: req.channelId,
      tech: 'WebSocket',
      nameBase: `WebSocket/${dialName}`,
      // Asterisk names the channel after its private structure's address.
      name: `WebSocket/${dialName}/0x${this.eng.ids.hex(6).replace(/^0+/, '')}`,
      endpoint: `WebSocket/${dialName}`,
      app: req.app,
      args: splitAppArgs(req.data),
      variables: req.variables,
      dial: { dialstring: `${dialName}/c(${codec.name})${req.transport_data ?? ''}`, timeoutMs: ANSWER_TIMEOUT_MS },
      setup: (c) => {
        c.d.external = { encapsulation: 'websocket', host: dialName, port: 0, format: codec.name, localPort: null, data: req.data ?? '' };
        for (const [k, val] of [['MEDIA_WEBSOCKET_OPTIMAL_FRAME_SIZE', String(frameSize)], ['MEDIA_WEBSOCKET_CONNECTION_ID', connectionId]] as const) {
          c.d.vars[k] = val;
          if (!c.d.reported.includes(k)) c.d.reported.push(k);
        }
        session = new Session(this, c, connectionId, server ? null : dialName, codec, frameSize, opts, opts.format ?? this.defaultFormat);
      },
    });
    this.sessions.set(ch, session!);
    if (server) this.incoming.set(connectionId, session!);
    // Like any originate into an app, the app hears about the channel for its whole life.
    this.eng.subscribe(ch, req.app);
    return ch;
  }

  /** Calls' port: dialing one of our channels starts the client connection (a server one waits for the application). */
  dial(ch: Channel): boolean {
    const s = this.sessions.get(ch);
    if (!s) return false;
    // As app_dial does, the channel records what was dialed.
    ch.d.vars.DIALEDPEERNUMBER = ch.d.dialing?.dialstring ?? '';
    this.eng.touch(ch);
    if (s.client !== null) {
      this.connector.connect(s.client, s.opts.uriParams, this.handlers(s)).then(
        (socket) => {
          if (s.closed) socket.close(CLOSE_NORMAL);
          else this.opened(s, socket);
        },
        (err: Error) => {
          this.eng.log.warn({ err: err.message, channel: ch.id, connection: s.client }, 'media websocket connection failed');
          if (!s.closed) this.calls.farRejected(ch, CAUSE_NO_ROUTE);
        },
      );
    }
    return true;
  }

  /** Before an incoming upgrade: 404 for an unknown connection id, 409 when one socket is already attached. */
  check(connectionId: string): 404 | 409 | undefined {
    const s = this.incoming.get(connectionId);
    if (!s || s.closed) return 404;
    return s.socket ? 409 : undefined;
  }

  /** An incoming socket for a connection id (after `check`); undefined when the channel went away meanwhile. */
  accept(connectionId: string): { handlers: MediaSocketHandlers; open: (socket: MediaSocket) => void } | undefined {
    const s = this.incoming.get(connectionId);
    if (!s || s.closed || s.socket) return undefined;
    return { handlers: this.handlers(s), open: (socket) => this.opened(s, socket) };
  }

  private handlers(s: Session): MediaSocketHandlers {
    return {
      text: (data) => this.command(s, data),
      binary: (data) => {
        if (s.queue.push(data)) this.send(s, bareEvent(s.ctx, 'MEDIA_XOFF'));
      },
      closed: () => {
        s.socket = null;
        if (!s.closed) this.hangup(s);
      },
    };
  }

  /** The application hangs up (HANGUP, or closing its socket): a call still being dialed fails, an answered one ends. */
  private hangup(s: Session): void {
    if (this.calls.isAwaitingAnswer(s.ch)) this.calls.farRejected(s.ch, CAUSE_NORMAL);
    else this.calls.hangup(s.ch, { by: 'far', cause: CAUSE_NORMAL });
  }

  /** The socket is open: MEDIA_START, media starts flowing, and the channel is answered (unless `n`). */
  private opened(s: Session, socket: MediaSocket): void {
    s.socket = socket;
    // Variables newest first, as Asterisk lists a channel's.
    const variables = Object.fromEntries(Object.entries(s.ch.d.vars).reverse());
    this.send(s, mediaStartEvent(s.ctx, { connectionId: s.connectionId, channel: s.ch.name, format: s.codec.name, optimalFrameSize: s.frameSize, ptime: FRAME_MS, variables }));
    s.dtmfSent = s.ch.d.far.dtmf.length;
    this.clock.add(s);
    if (!s.opts.noAutoAnswer) this.calls.farAnswered(s.ch);
  }

  private send(s: Session, text: string): void {
    s.socket?.sendText(text);
  }

  private command(s: Session, text: string): void {
    const c = parseCommand(text, s.ctx.format);
    if (c === null) return;
    if ('error' in c) return this.send(s, errorEvent(s.ctx, c.error));
    const q = s.queue;
    const queueCommands = ['START_MEDIA_BUFFERING', 'STOP_MEDIA_BUFFERING', 'MARK_MEDIA', 'FLUSH_MEDIA', 'REPORT_QUEUE_DRAINED', 'PAUSE_MEDIA', 'CONTINUE_MEDIA'];
    if (q.passthrough && queueCommands.includes(c.command)) return this.send(s, errorEvent(s.ctx, `${c.command} not supported in passthrough mode`));
    switch (c.command) {
      case 'ANSWER':
        if (this.calls.isAwaitingAnswer(s.ch)) this.calls.farAnswered(s.ch);
        return;
      case 'HANGUP':
        return this.hangup(s);
      case 'START_MEDIA_BUFFERING':
        q.bulk = true;
        return;
      case 'STOP_MEDIA_BUFFERING':
        if (q.stopBuffering(correlatedEvent(s.ctx, 'MEDIA_BUFFERING_COMPLETED', c.correlationId))) this.send(s, bareEvent(s.ctx, 'MEDIA_XOFF'));
        return;
      case 'MARK_MEDIA':
        if (!q.mark(correlatedEvent(s.ctx, 'MEDIA_MARK_PROCESSED', c.correlationId))) this.send(s, errorEvent(s.ctx, 'Too many marks are waiting'));
        return;
      case 'FLUSH_MEDIA':
        return q.flush();
      case 'REPORT_QUEUE_DRAINED':
        q.reportDrained = true;
        return;
      case 'GET_STATUS':
        return this.send(s, statusEvent(s.ctx, { length: q.length, full: q.full, bulk: q.bulk, paused: q.paused }));
      case 'PAUSE_MEDIA':
      case 'CONTINUE_MEDIA':
        q.paused = c.command === 'PAUSE_MEDIA';
        return;
      default:
        // chan_websocket only logs a command it does not know.
        this.eng.log.debug({ channel: s.ch.id, command: c.command }, 'unknown media websocket command');
    }
  }

  /** The received frame playing at `tick`: taken from the queue the first time the tick is asked for, with the notices due. */
  private frameAt(s: Session, tick: number): Int16Array | null {
    if (s.tick === tick) return s.current;
    s.tick = tick;
    const d = s.queue.next();
    for (const n of d.notices) this.send(s, typeof n === 'string' ? bareEvent(s.ctx, n) : n.text);
    s.current = null;
    if (d.frame) {
      // A short frame (the end of buffered media) is padded with silence; passthrough keeps one frame's worth.
      const pcm = s.codec.decode(d.frame);
      s.current = new Int16Array(FRAME_SAMPLES);
      s.current.set(pcm.subarray(0, FRAME_SAMPLES));
    }
    return s.current;
  }

  /** One tick of an open socket: its inbound frame, digits sent to the channel, and the outbound frame to the application. */
  onTick(s: Session, tick: number): void {
    if (s.closed || !s.socket) return;
    this.frameAt(s, tick);
    const dtmf = s.ch.d.far.dtmf;
    const elapsed = this.eng.clock.simSince(s.ch.d.created);
    while (s.dtmfSent < dtmf.length && dtmf[s.dtmfSent]!.offset_ms + dtmf[s.dtmfSent]!.duration_ms <= elapsed) {
      this.send(s, dtmfEvent(s.ctx, dtmf[s.dtmfSent++]!.digit));
    }
    if (s.ch.d.state !== 'Up') return;
    const encoded = s.encoder.push(this.router.outbound(s.ch, tick));
    if (encoded.length) s.socket?.sendBinary(encoded);
  }

  /** The channel's inbound audio (AudioProviders.external). */
  read(ch: Channel, tick: number, out: Int16Array): boolean {
    const s = this.sessions.get(ch);
    if (!s) return false;
    const f = s.socket ? this.frameAt(s, tick) : null;
    if (f) out.set(f);
    return true;
  }

  /** A channel restored after a restart lost its socket: it ends. */
  restored(ch: Channel): void {
    this.calls.hangup(ch, { by: 'none', cause: CAUSE_FAILURE });
  }

  private close(ch: Channel): void {
    const s = this.sessions.get(ch);
    if (!s) return;
    s.closed = true;
    this.clock.delete(s);
    this.sessions.delete(ch);
    if (this.incoming.get(s.connectionId) === s) this.incoming.delete(s.connectionId);
    s.socket?.close(ch.d.hangupCause === CAUSE_FAILURE ? CLOSE_GOING_AWAY : CLOSE_NORMAL);
    s.socket = null;
  }

  closeAll(): void {
    for (const ch of [...this.sessions.keys()]) this.close(ch);
  }
}
