import type { ExternalHostPolicy } from '../media/external-host-policy.js';
import { createHash } from 'node:crypto';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { isIP } from 'node:net';
import { connect, type Socket } from 'node:net';
import type { VariableInput } from '../../../protocol/operation.js';
import { badRequest } from '../../errors.js';
import type { FrameConsumer, MediaClock } from '../media/media-clock.js';
import type { Codec, Codecs } from '../media/codec.js';
import { FRAME_MS, FRAME_SAMPLES, slinBytes, slinFromBytes } from '../media/pcm.js';
import { decodeRtp, encodeRtp, PAYLOAD_TYPES, RtpReceiveStats } from '../media/rtp.js';
import type { IdSource } from '../time/id-source.js';
import type { AudioRouter } from './audio.js';
import { splitAppArgs } from './call-requests.js';
import type { Calls } from './calls.js';
import type { Channel } from './channel.js';
import type { Engine } from './engine.js';
import type { WebSocketMedia } from './websocket-media.js';

export interface ExternalMediaRequest {
  channelId?: string | undefined;
  app?: string | undefined;
  variables?: VariableInput[] | undefined;
  external_host?: string | undefined;
  encapsulation: string;
  transport: string;
  connection_type: string;
  format?: string | undefined;
  direction: string;
  data?: string | undefined;
  transport_data?: string | undefined;
}

/** Which transport each encapsulation travels on. */
const TRANSPORT_OF: Record<string, string> = { rtp: 'udp', audiosocket: 'tcp', none: 'websocket' };

/** At most this much received audio waits to be read (older frames are dropped). */
const MAX_QUEUED_FRAMES = 25;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A stable SSRC per channel, so statistics and packets agree across requests. */
export function ssrcOf(id: string): number {
  return createHash('sha1').update(id).digest().readUInt32BE(0);
}

/** One external media stream: sends the channel's outbound audio every 20 ms and queues what arrives as its inbound. */
class Stream implements FrameConsumer {
  readonly queue: Int16Array[] = [];
  tx = { packets: 0, octets: 0 };
  readonly rx: RtpReceiveStats;
  seq: number;
  timestamp: number;
  udp: UdpSocket | null = null;
  tcp: Socket | null = null;
  tcpBuffer = Buffer.alloc(0);
  closed = false;
  /** One continuous stream: resampling (slin16) must not restart at every frame edge. */
  private readonly encoder: ReturnType<Codec['encoder']>;

  constructor(readonly ch: Channel, readonly codec: Codec, readonly owner: ExternalMedia, ids: IdSource) {
    this.rx = new RtpReceiveStats(codec.rate);
    // RTP starts its sequence and timestamp at unpredictable values (seeded ones on the virtual clock).
    const start = Buffer.from(ids.hex(6), 'hex');
    this.seq = start.readUInt16BE(0);
    this.timestamp = start.readUInt32BE(2) & 0x7fffffff;
    this.encoder = codec.encoder();
  }

  onFrame(tick: number): void {
    if (this.closed) return;
    const frame = this.owner.router.outbound(this.ch, tick);
    const ext = this.ch.d.external!;
    if (this.udp) {
      // Linear PCM travels in network byte order (RFC 3551 L16); the codec writes little-endian.
      // A resampling encoder hands a frame back one tick late, so the first tick sends nothing.
      const encoded = this.encoder.push(frame);
      if (!encoded.length) return;
      const payload = this.codec.name.startsWith('slin') ? swap16(encoded) : encoded;
      const pkt = encodeRtp({ payloadType: PAYLOAD_TYPES[this.codec.name]!, sequence: this.seq++, timestamp: this.timestamp, ssrc: ssrcOf(this.ch.id), marker: this.tx.packets === 0, payload });
      this.timestamp += (this.codec.rate * FRAME_MS) / 1000;
      this.tx.packets++;
      this.tx.octets += payload.length;
      this.udp.send(pkt, ext.port, ext.host);
    } else if (this.tcp && !this.tcp.connecting) {
      const payload = slinBytes(frame);
      const head = Buffer.from([0x10, payload.length >> 8, payload.length & 0xff]);
      this.tx.packets++;
      this.tx.octets += payload.length;
      this.tcp.write(Buffer.concat([head, payload]));
    }
  }

  push(pcm: Int16Array): void {
    for (let i = 0; i < pcm.length; i += FRAME_SAMPLES) {
      const f = new Int16Array(FRAME_SAMPLES);
      f.set(pcm.subarray(i, i + FRAME_SAMPLES));
      this.queue.push(f);
    }
    while (this.queue.length > MAX_QUEUED_FRAMES) this.queue.shift();
  }
}

/**
 * External media channels: `encapsulation=rtp, transport=udp` streams RTP
 * to external_host and takes RTP arriving on our local port as the
 * channel's inbound audio; `encapsulation=audiosocket, transport=tcp`
 * connects to external_host and speaks AudioSocket (3-byte header: kind,
 * 16-bit length; 0x01 UUID, 0x10 slin audio, 0x00 hangup, 0xff error).
 */
export class ExternalMedia {
  private readonly streams = new Map<Channel, Stream>();

  constructor(
    private readonly eng: Engine,
    private readonly calls: Calls,
    readonly router: AudioRouter,
    private readonly clock: MediaClock,
    private readonly codecs: Codecs,
    private readonly bindHost: string,
    private readonly hostPolicy: ExternalHostPolicy,
    /** encapsulation none over websocket (chan_websocket). */
    private readonly websocket: WebSocketMedia,
  ) {
    eng.onHangup((ch) => this.close(ch));
  }

  /** Re-opens streams of channels restored after a restart (same local RTP port when free). */
  async restore(): Promise<void> {
    for (const ch of this.eng.all()) {
      if (!ch.d.external) continue;
      if (ch.d.external.encapsulation === 'websocket') {
        this.websocket.restored(ch);
        continue;
      }
      try {
        await this.open(ch, ch.d.external.localPort ?? 0);
      } catch {
        this.calls.hangup(ch, { by: 'none', cause: 38 });
      }
    }
  }

  /** Validates in Asterisk's order, then creates the channel and opens its stream. */
  async create(req: ExternalMediaRequest): Promise<Channel> {
    if (!req.app) throw badRequest('app cannot be empty');
    if (!(req.encapsulation in TRANSPORT_OF)) throw badRequest(`Invalid encapsulation '${req.encapsulation}'`);
    if (!Object.values(TRANSPORT_OF).includes(req.transport)) throw badRequest(`Invalid transport '${req.transport}'`);
    if (req.transport !== TRANSPORT_OF[req.encapsulation]) throw badRequest(`transport must be '${TRANSPORT_OF[req.encapsulation]}' for ${req.encapsulation} encapsulation`);
    if (!['client', 'server'].includes(req.connection_type)) throw badRequest(`Invalid connection_type '${req.connection_type}'`);
    const websocket = req.transport === 'websocket';
    if (req.connection_type === 'server' && !websocket) throw badRequest('\'server\' connection_type can only be used with the websocket transport');
    if (!req.external_host && !(websocket && req.connection_type === 'server')) throw badRequest('external_host is required for all but websocket server connections');
    if (websocket) {
      if (!req.format) throw badRequest('format cannot be empty');
      if (req.direction !== 'both') throw badRequest('Invalid direction specified');
      return this.websocket.create({ ...req, app: req.app }, this.websocket.codec(req.format));
    }
    if (req.transport_data) throw badRequest('transport_data is only used with the websocket transport');
    const m = /^(\[[0-9a-fA-F:]+\]|[^:\s]+):(\d{1,5})$/.exec(req.external_host!);
    const port = m ? Number(m[2]) : NaN;
    if (!m || port < 1 || port > 65535) throw badRequest('external_host must be <host>:<port> for all transports other than websocket');
    const host = m[1]!.replace(/^\[|\]$/g, '');
    if (!req.format) throw badRequest('format cannot be empty');
    if (req.direction !== 'both') throw badRequest('Invalid direction specified');
    if (req.encapsulation === 'audiosocket' && !req.data) throw badRequest('data can not be empty');
    // Asterisk looks the format up only when it dials the channel, after every parameter check.
    const codec = this.codecs.get(req.format);
    if (!codec) throw badRequest(`Provided format (${req.format}) was not found`);
    if (req.encapsulation === 'rtp' && PAYLOAD_TYPES[codec.name] === undefined) throw badRequest(`Format ${codec.name} cannot be carried over RTP (ulaw, alaw, slin or slin16)`);
    if (req.encapsulation === 'audiosocket') {
      if (!UUID.test(req.data ?? '')) throw badRequest('data must be a UUID for audiosocket');
      if (codec.name !== 'slin') throw badRequest('AudioSocket carries slin (8 kHz signed linear) only');
    }
    if (isIP(host) === 0 && host !== 'localhost') throw badRequest('external_host must be an IP address and port');
    const refused = this.hostPolicy.refusal(host === 'localhost' ? '127.0.0.1' : host);
    if (refused) throw badRequest(refused);
    const tech = req.encapsulation === 'rtp' ? 'UnicastRTP' : 'AudioSocket';
    const ext = { encapsulation: req.encapsulation as 'rtp' | 'audiosocket', host: host === 'localhost' ? '127.0.0.1' : host, port, format: codec.name, localPort: null, data: req.data ?? '' };
    const ch = this.calls.createInternal({
      id: req.channelId,
      tech,
      nameBase: `${tech}/${host}:${port}`,
      endpoint: `${tech}/${host}:${port}`,
      app: req.app,
      // Asterisk dials both encapsulations with `data` as the Stasis app arguments.
      args: splitAppArgs(req.data),
      variables: req.variables,
      setup: (c) => {
        c.d.external = ext;
      },
    });
    // Asterisk dials external media as an originate into the app, which subscribes the app to the
    // channel for its whole life: it still hears ChannelDestroyed after StasisEnd.
    this.eng.subscribe(ch, req.app);
    try {
      await this.open(ch, 0);
    } catch (err) {
      this.calls.hangup(ch, { by: 'none', cause: 38 });
      throw badRequest(`Could not open the external media stream: ${(err as Error).message}`);
    }
    return ch;
  }

  private async open(ch: Channel, localPort: number): Promise<void> {
    const ext = ch.d.external!;
    const codec = this.codecs.get(ext.format)!;
    const stream = new Stream(ch, codec, this, this.eng.ids);
    this.streams.set(ch, stream);
    if (ext.encapsulation === 'rtp') {
      const udp = createSocket(ext.host.includes(':') ? 'udp6' : 'udp4');
      await new Promise<void>((resolve, reject) => {
        udp.once('error', reject);
        udp.bind(localPort, this.bindHost, () => resolve());
      });
      udp.on('error', (err) => this.eng.log.warn({ err, channel: ch.id }, 'external media socket error'));
      udp.on('message', (msg) => {
        const p = decodeRtp(msg);
        if (!p) return;
        // Wall-clock I/O: interarrival jitter compares when packets really reached our socket.
        stream.rx.record(p, Date.now());
        const pcm = codec.name.startsWith('slin') ? codec.decode(swap16(p.payload)) : codec.decode(p.payload);
        stream.push(pcm);
      });
      stream.udp = udp;
      const addr = udp.address();
      ext.localPort = addr.port;
      // Asterisk reports where to send media in the channel's variables (and its channelvars).
      for (const [k, val] of [['UNICASTRTP_LOCAL_ADDRESS', addr.address], ['UNICASTRTP_LOCAL_PORT', String(addr.port)]] as const) {
        ch.d.vars[k] = val;
        if (!ch.d.reported.includes(k)) ch.d.reported.push(k);
      }
      this.eng.touch(ch);
    } else {
      const tcp = connect({ host: ext.host, port: ext.port });
      stream.tcp = tcp;
      tcp.setNoDelay(true);
      tcp.on('connect', () => {
        const uuid = Buffer.from(ext.data.replace(/-/g, ''), 'hex');
        tcp.write(Buffer.concat([Buffer.from([0x01, 0, 16]), uuid]));
      });
      tcp.on('data', (d) => this.audioSocketData(stream, d));
      tcp.on('error', (err) => {
        this.eng.log.warn({ err: err.message, channel: ch.id }, 'audiosocket connection failed');
        if (!stream.closed) this.calls.hangup(ch, { by: 'far', cause: 38 });
      });
      tcp.on('close', () => {
        if (!stream.closed) this.calls.hangup(ch, { by: 'far', cause: 16 });
      });
      await new Promise<void>((resolve, reject) => {
        tcp.once('connect', () => resolve());
        tcp.once('error', reject);
      });
    }
    this.clock.add(stream);
  }

  private audioSocketData(stream: Stream, d: Buffer): void {
    stream.tcpBuffer = Buffer.concat([stream.tcpBuffer, d]);
    while (stream.tcpBuffer.length >= 3) {
      const kind = stream.tcpBuffer[0]!;
      const len = stream.tcpBuffer.readUInt16BE(1);
      if (stream.tcpBuffer.length < 3 + len) break;
      const payload = stream.tcpBuffer.subarray(3, 3 + len);
      stream.tcpBuffer = stream.tcpBuffer.subarray(3 + len);
      if (kind === 0x10) {
        stream.rx.packets++;
        stream.rx.octets += len;
        stream.push(slinFromBytes(payload));
      } else if (kind === 0x00) this.calls.hangup(stream.ch, { by: 'far', cause: 16 });
      else if (kind === 0xff) this.calls.hangup(stream.ch, { by: 'far', cause: 38 });
    }
  }

  /** The channel's inbound audio: the next frame received, or silence. */
  read(ch: Channel, tick: number, out: Int16Array): void {
    if (this.websocket.read(ch, tick, out)) return;
    const f = this.streams.get(ch)?.queue.shift();
    if (f) out.set(f);
  }

  stats(ch: Channel): { tx: { packets: number; octets: number }; rx: RtpReceiveStats; ssrc: number } | undefined {
    const s = this.streams.get(ch);
    return s ? { tx: s.tx, rx: s.rx, ssrc: ssrcOf(ch.id) } : undefined;
  }

  private close(ch: Channel): void {
    const s = this.streams.get(ch);
    if (!s) return;
    s.closed = true;
    this.clock.delete(s);
    s.udp?.close();
    if (s.tcp) {
      // AudioSocket: a hangup message, then the connection ends.
      if (!s.tcp.destroyed) s.tcp.end(Buffer.from([0x00, 0, 0]));
    }
    this.streams.delete(ch);
  }

  closeAll(): void {
    this.websocket.closeAll();
    for (const ch of [...this.streams.keys()]) this.close(ch);
  }
}

function swap16(b: Buffer): Buffer {
  const out = Buffer.from(b.subarray(0, b.length - (b.length % 2)));
  out.swap16();
  return out;
}

