import type { VariableInput } from '../../../protocol/operation.js';
import { badRequest } from '../../errors.js';
import type { Codec, Codecs } from '../media/codec.js';
import type { MediaClock } from '../media/media-clock.js';
import { FRAME_MS, FRAME_SAMPLES } from '../media/pcm.js';
import { PAYLOAD_TYPES } from '../media/rtp.js';
import { bareEvent, dtmfEvent, mediaStartEvent, parseDialOptions, type ControlFormat, type DialOptions } from '../media/ws-media-protocol.js';
import type { AudioRouter } from './audio.js';
import { splitAppArgs } from './call-requests.js';
import type { Calls } from './calls.js';
import type { Channel } from './channel.js';
import type { Engine } from './engine.js';
import type { DrivenChannel, DriverChannels, MediaConnector, MediaSocket, MediaSocketHandlers } from './media-socket.js';
import { runCommand, type CommandPort } from './websocket-media-commands.js';
import { WebSocketSession as Session, type TickSink } from './websocket-media-session.js';
import { farDtmfAfter, farDtmfTotal } from './far-dtmf.js';

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
/** WebSocket status codes: normal, and going away (the channel failed under it, or the application left). */
const CLOSE_NORMAL = 1000;
const CLOSE_GOING_AWAY = 1001;
/** Q.850 causes: the application hung up, the client connection could not be made, the socket broke. */
const CAUSE_NORMAL = 16;
const CAUSE_NO_ROUTE = 3;
const CAUSE_FAILURE = 38;

/** A dial string's checked parts: where the socket comes from, and its options. */
interface Plan {
  dialName: string;
  server: boolean;
  opts: DialOptions;
  codec: Codec;
}

/**
 * Channels of technology WebSocket (chan_websocket), made by externalMedia
 * (transport=websocket) or by originate/create with endpoint
 * `WebSocket/<connection>[/<options>]`. Such a channel starts Down and is
 * dialed: with the connection INCOMING the application connects to
 * /media/<MEDIA_WEBSOCKET_CONNECTION_ID>, otherwise we connect to the named
 * websocket_client connection. When the socket opens the application gets
 * MEDIA_START and the channel is answered (unless the options hold `n`).
 * From then on, every 20 ms the channel's outbound audio goes to the socket
 * as one binary frame in the channel's format, and one frame of what the
 * application sent (MediaFrameQueue) is its inbound audio, or silence; the
 * media direction (SET_MEDIA_DIRECTION, `d()`) can stop either way. Text
 * frames are commands (websocket-media-commands.ts) and our events.
 */
export class WebSocketMedia implements TickSink, DriverChannels {
  private readonly sessions = new Map<Channel, Session>();
  private readonly incoming = new Map<string, Session>();
  private readonly commandPort: CommandPort;

  constructor(
    private readonly eng: Engine,
    private readonly calls: Calls,
    private readonly router: AudioRouter,
    private readonly clock: MediaClock,
    private readonly codecs: Codecs,
    private readonly connector: MediaConnector,
    /** The control message format when the dial options do not choose one (chan_websocket.conf's). */
    private readonly defaultFormat: ControlFormat = 'plain-text',
  ) {
    eng.onHangup((ch) => this.close(ch));
    this.commandPort = {
      answer: (s) => {
        if (this.calls.isAwaitingAnswer(s.ch)) this.calls.farAnswered(s.ch);
      },
      hangup: (s) => this.hangup(s, CAUSE_NORMAL, CLOSE_NORMAL),
      send: (s, text) => this.send(s, text),
      // chan_websocket only logs a command it does not know.
      unknown: (s, command) => this.eng.log.debug({ channel: s.ch.id, command }, 'unknown media websocket command'),
    };
  }

  /** A codec a media WebSocket can frame; a 400 for any other. */
  codec(name: string): Codec {
    const codec = this.codecs.get(name);
    if (!codec) throw badRequest(`Provided format (${name}) was not found`);
    // The media formats chan_websocket can frame; the others are file formats here.
    if (PAYLOAD_TYPES[codec.name] === undefined) throw badRequest(`Format ${codec.name} cannot be carried over a media WebSocket (ulaw, alaw, slin or slin16)`);
    return codec;
  }

  /** Checks a dial string's connection and options (Asterisk's checks and words); `codec` is used unless the options name one. */
  private plan(dialName: string, options: string | undefined, codec: () => Codec): Plan {
    const opts = parseDialOptions(options);
    if (!opts) throw badRequest(`'WebSocket' channel options '${options}' parse error`);
    const server = dialName === INCOMING;
    if (server && opts.uriParams !== undefined) throw badRequest('URI parameters are not allowed for \'WebSocket/INCOMING\' channels');
    if (!server) {
      const refused = this.connector.refusal(dialName);
      if (refused) throw badRequest(refused);
    }
    return { dialName, server, opts, codec: opts.codec !== undefined ? this.codec(opts.codec) : codec() };
  }

  /** The channel's variables and session, set up while the channel is built (before its ChannelCreated leaves). */
  private attach(c: Channel, p: Plan): Session {
    const connectionId = p.server ? this.eng.ids.uuid() : p.dialName;
    const frameSize = (p.codec.rate * FRAME_MS * p.codec.bytesPerSample) / 1000;
    for (const [k, val] of [['MEDIA_WEBSOCKET_OPTIMAL_FRAME_SIZE', String(frameSize)], ['MEDIA_WEBSOCKET_CONNECTION_ID', connectionId]] as const) {
      c.d.vars[k] = val;
      if (!c.d.reported.includes(k)) c.d.reported.push(k);
    }
    const s = new Session(this, c, connectionId, p.server ? null : p.dialName, p.codec, frameSize, p.opts, p.opts.format ?? this.defaultFormat);
    this.sessions.set(c, s);
    if (p.server) this.incoming.set(connectionId, s);
    return s;
  }

  /** Asterisk names the channel after its private structure's address. */
  private channelName(dialName: string): string {
    return `WebSocket/${dialName}/0x${this.eng.ids.hex(6).replace(/^0+/, '')}`;
  }

  /** externalMedia: creates the channel; the 200 shows it Down with MEDIA_WEBSOCKET_CONNECTION_ID and MEDIA_WEBSOCKET_OPTIMAL_FRAME_SIZE in channelvars. */
  create(req: WebSocketMediaRequest, codec: Codec): Channel {
    const p = this.plan(req.connection_type === 'server' ? INCOMING : req.external_host!, req.transport_data, () => codec);
    const ch = this.calls.createInternal({
      id: req.channelId,
      tech: 'WebSocket',
      nameBase: `WebSocket/${p.dialName}`,
      name: this.channelName(p.dialName),
      endpoint: `WebSocket/${p.dialName}`,
      app: req.app,
      args: splitAppArgs(req.data),
      variables: req.variables,
      dial: { dialstring: `${p.dialName}/c(${p.codec.name})${req.transport_data ?? ''}`, timeoutMs: ANSWER_TIMEOUT_MS },
      setup: (c) => {
        c.d.external = { encapsulation: 'websocket', host: p.dialName, port: 0, format: p.codec.name, localPort: null, data: req.data ?? '' };
        this.attach(c, p);
      },
    });
    // Like any originate into an app, the app hears about the channel for its whole life.
    this.eng.subscribe(ch, req.app);
    return ch;
  }

  // ---- originate and create with endpoint WebSocket/… (ChannelFactory's DriverChannels port) ----

  owns(tech: string): boolean {
    return tech.toLowerCase() === 'websocket';
  }

  check(resource: string): void {
    const [dialName, options] = splitResource(resource);
    this.plan(dialName, options, () => this.codec('ulaw'));
  }

  allocate(resource: string, formats: string[], build: (p: DrivenChannel) => Channel): Channel {
    const [dialName, options] = splitResource(resource);
    // Without c(), the first format of the caller (originator, formats, or the default list), as chan_websocket does.
    const p = this.plan(dialName, options, () => this.codec(formats[0] ?? 'ulaw'));
    return build({
      tech: 'WebSocket', endpoint: `WebSocket/${dialName}`, name: this.channelName(dialName), formats: [p.codec.name],
      setup: (c) => {
        c.d.external = { encapsulation: 'websocket', host: dialName, port: 0, format: p.codec.name, localPort: null, data: '' };
        this.attach(c, p);
      },
    });
  }

  /** Calls' port: dialing one of our channels starts the client connection (a server one waits for the application). */
  dial(ch: Channel): boolean {
    const s = this.sessions.get(ch);
    if (!s) return false;
    // As app_dial does, the channel records what was dialed.
    ch.d.vars.DIALEDPEERNUMBER = ch.d.dialing?.dialstring ?? '';
    this.eng.touch(ch);
    if (s.client === null) {
      // A created channel the application connected to before it was dialed answers now.
      if (s.socket && !s.opts.noAutoAnswer) this.eng.schedule(ch, 'answer', 0);
      return true;
    }
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
    return true;
  }

  /** Before an incoming upgrade: 404 for an unknown connection id, 409 when one socket is already attached. */
  checkConnection(connectionId: string): 404 | 409 | undefined {
    const s = this.incoming.get(connectionId);
    if (!s || s.closed) return 404;
    return s.socket ? 409 : undefined;
  }

  /** An incoming socket for a connection id (after `checkConnection`); undefined when the channel went away meanwhile. */
  accept(connectionId: string): { channel: string; handlers: MediaSocketHandlers; open: (socket: MediaSocket) => void } | undefined {
    const s = this.incoming.get(connectionId);
    if (!s || s.closed || s.socket) return undefined;
    return { channel: s.ch.name, handlers: this.handlers(s), open: (socket) => this.opened(s, socket) };
  }

  private handlers(s: Session): MediaSocketHandlers {
    return {
      text: (data) => runCommand(s, data, this.commandPort),
      binary: (data) => {
        // Direction in: the application only listens, and what it sends anyway is dropped.
        if (s.direction === 'in') return;
        if (s.queue.push(data)) this.send(s, bareEvent(s.ctx, 'MEDIA_XOFF'));
      },
      closed: (how) => {
        s.socket = null;
        if (s.closed) return;
        // As chan_websocket: a close frame from the application is a normal clearing, a broken socket a
        // network failure; either way the hangup reports the socket going away as its tech_cause.
        if (how === 'peer') this.hangup(s, CAUSE_NORMAL, CLOSE_GOING_AWAY);
        else this.hangup(s, CAUSE_FAILURE, CLOSE_GOING_AWAY);
      },
    };
  }

  /** The application's side ends the call: one still being dialed fails, an answered one ends; `techCause` is the WebSocket status. */
  private hangup(s: Session, cause: number, techCause: number): void {
    s.ch.d.techCause = techCause;
    this.eng.touch(s.ch);
    if (this.calls.isAwaitingAnswer(s.ch)) this.calls.farRejected(s.ch, cause);
    else this.calls.hangup(s.ch, { by: 'far', cause });
  }

  /** The socket is open: MEDIA_START, media starts flowing, and the channel is answered (unless `n`). */
  private opened(s: Session, socket: MediaSocket): void {
    s.socket = socket;
    // Variables newest first, as Asterisk lists a channel's.
    const variables = Object.fromEntries(Object.entries(s.ch.d.vars).reverse());
    this.send(s, mediaStartEvent(s.ctx, { connectionId: s.connectionId, channel: s.ch.name, format: s.codec.name, optimalFrameSize: s.frameSize, ptime: FRAME_MS, variables }));
    s.dtmfSent = farDtmfTotal(s.ch.d.far);
    this.clock.add(s);
    if (!s.opts.noAutoAnswer) this.calls.farAnswered(s.ch);
  }

  private send(s: Session, text: string): void {
    s.socket?.sendText(text);
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
    const elapsed = this.eng.clock.simSince(s.ch.d.created);
    for (const d of farDtmfAfter(s.ch.d.far, s.dtmfSent)) {
      if (d.offset_ms + d.duration_ms > elapsed) break;
      this.send(s, dtmfEvent(s.ctx, d.digit));
      s.dtmfSent++;
    }
    if (s.ch.d.state !== 'Up') return;
    // The encoder runs every tick (a resampler keeps its state); direction out only keeps the frame from the application.
    const encoded = s.encoder.push(this.router.outbound(s.ch, tick));
    if (encoded.length && s.direction !== 'out') s.socket?.sendBinary(encoded);
  }

  /** The channel's inbound audio (AudioProviders.external). */
  read(ch: Channel, tick: number, out: Int16Array): boolean {
    const s = this.sessions.get(ch);
    if (!s) return false;
    const f = s.socket ? this.frameAt(s, tick) : null;
    if (f) out.set(f);
    return true;
  }

  /**
   * A channel restored after a restart lost its socket: it ends at once, as
   * a broken socket ends one (cause 38, the socket gone as tech_cause). No
   * client connection is opened again, and its connection id is not served.
   */
  restored(ch: Channel): void {
    ch.d.techCause = CLOSE_GOING_AWAY;
    this.calls.hangup(ch, { by: 'none', cause: CAUSE_FAILURE });
  }

  /** Ends a channel's session; its socket closes normally, or as going away when the channel failed or the server stops. */
  private close(ch: Channel, goingAway = ch.d.hangupCause === CAUSE_FAILURE): void {
    const s = this.sessions.get(ch);
    if (!s) return;
    s.closed = true;
    this.clock.delete(s);
    this.sessions.delete(ch);
    if (this.incoming.get(s.connectionId) === s) this.incoming.delete(s.connectionId);
    s.socket?.close(goingAway ? CLOSE_GOING_AWAY : CLOSE_NORMAL);
    s.socket = null;
  }

  /** The server stops: every socket closes as going away (the channels stay, and end when restored). */
  closeAll(): void {
    for (const ch of [...this.sessions.keys()]) this.close(ch, true);
  }
}

/** `<connection>[/<options>]`: the connection name, and the options after the first slash. */
function splitResource(resource: string): [string, string | undefined] {
  const slash = resource.indexOf('/');
  return slash < 0 ? [resource, undefined] : [resource.slice(0, slash), resource.slice(slash + 1)];
}
