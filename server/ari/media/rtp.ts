/** RTP (RFC 3550) fixed header, no CSRCs or extensions on what we send. */
export interface RtpPacket {
  payloadType: number;
  sequence: number;
  timestamp: number;
  ssrc: number;
  marker: boolean;
  payload: Buffer;
}

export function encodeRtp(p: RtpPacket): Buffer {
  const b = Buffer.allocUnsafe(12 + p.payload.length);
  b[0] = 0x80; // version 2, no padding, no extension, no CSRC
  b[1] = (p.marker ? 0x80 : 0) | (p.payloadType & 0x7f);
  b.writeUInt16BE(p.sequence & 0xffff, 2);
  b.writeUInt32BE(p.timestamp >>> 0, 4);
  b.writeUInt32BE(p.ssrc >>> 0, 8);
  p.payload.copy(b, 12);
  return b;
}

/** Parses an RTP packet (skipping CSRCs, extension and padding); undefined when it is not RTP version 2. */
export function decodeRtp(b: Buffer): RtpPacket | undefined {
  if (b.length < 12 || b[0]! >> 6 !== 2) return undefined;
  const cc = b[0]! & 0x0f;
  let off = 12 + cc * 4;
  if (b[0]! & 0x10) {
    if (b.length < off + 4) return undefined;
    off += 4 + b.readUInt16BE(off + 2) * 4;
  }
  let end = b.length;
  if (b[0]! & 0x20) end -= b[b.length - 1]!;
  if (off > end) return undefined;
  return {
    payloadType: b[1]! & 0x7f,
    marker: (b[1]! & 0x80) !== 0,
    sequence: b.readUInt16BE(2),
    timestamp: b.readUInt32BE(4),
    ssrc: b.readUInt32BE(8),
    payload: b.subarray(off, end),
  };
}

/**
 * Payload types we use for external media: the static G.711 ones, and
 * dynamic types for linear PCM (slin 117, slin16 118) as documented in the README.
 */
export const PAYLOAD_TYPES: Record<string, number> = { ulaw: 0, alaw: 8, slin: 117, slin16: 118 };

/** Receive-side statistics: counts, loss from sequence gaps, and RFC 3550 interarrival jitter (seconds). */
export class RtpReceiveStats {
  packets = 0;
  octets = 0;
  lost = 0;
  jitter = 0;
  maxJitter = 0;
  minJitter = Infinity;
  /** The sender's SSRC (rtp_statistics' remote_ssrc); 0 until a packet arrives. */
  ssrc = 0;
  private lastSeq = -1;
  private lastTransit: number | undefined;

  constructor(private readonly clockRate: number) {}

  record(p: RtpPacket, arrivalMs: number): void {
    this.packets++;
    this.octets += p.payload.length;
    this.ssrc = p.ssrc;
    if (this.lastSeq >= 0) {
      const gap = (p.sequence - this.lastSeq + 0x10000) & 0xffff;
      if (gap > 1 && gap < 0x8000) this.lost += gap - 1;
    }
    this.lastSeq = p.sequence;
    const transit = (arrivalMs / 1000) * this.clockRate - p.timestamp;
    if (this.lastTransit !== undefined) {
      const d = Math.abs(transit - this.lastTransit);
      this.jitter += (d - this.jitter) / 16;
      const seconds = this.jitter / this.clockRate;
      this.maxJitter = Math.max(this.maxJitter, seconds);
      this.minJitter = Math.min(this.minJitter, seconds);
    }
    this.lastTransit = transit;
  }

  get jitterSeconds(): number {
    return this.jitter / this.clockRate;
  }
}
