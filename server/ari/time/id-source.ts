import { createHash, randomBytes, randomUUID } from 'node:crypto';

/**
 * Where the engine gets the identifiers it makes up (bridge and playback ids
 * nobody gave, SIP Call-ID prefixes, the entity id, media connection ids).
 * They follow the clock: random on the real clock, and on the virtual clock
 * drawn from a seeded sequence, so the same start and the same requests give
 * the same ids run after run.
 */
export interface IdSource {
  /** A UUID (version 4 layout). */
  uuid(): string;
  /** `bytes` bytes as lowercase hex. */
  hex(bytes: number): string;
}

/** Ids from the system's random source. */
export const randomIds: IdSource = {
  uuid: () => randomUUID(),
  hex: (bytes) => randomBytes(bytes).toString('hex'),
};

/**
 * Ids that look random but are the SHA-256 of a seed and a running count:
 * the n-th id asked for is the same in every run with the same seed.
 */
export class SeededIds implements IdSource {
  private n = 0;

  constructor(private readonly seed: string) {}

  hex(bytes: number): string {
    let out = '';
    while (out.length < bytes * 2) out += createHash('sha256').update(`${this.seed}:${++this.n}`).digest('hex');
    return out.slice(0, bytes * 2);
  }

  uuid(): string {
    const h = this.hex(16).split('');
    h[12] = '4'; // version 4
    h[16] = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16); // RFC 4122 variant
    const s = h.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
}
