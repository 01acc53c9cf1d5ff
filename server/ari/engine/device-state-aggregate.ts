import type { ChannelState } from '../../../protocol/ari/models/channel.js';
import { WRITABLE_DEVICE_STATES, type DeviceStateName } from '../../../protocol/ari/models/device-state.js';
import type { EndpointFixture } from '../fixtures.js';
import type { Channel } from './channel.js';

/** What one channel in a given state makes of its device (Asterisk's channel-to-device table). */
const OF_CHANNEL: Record<ChannelState, DeviceStateName> = {
  Down: 'NOT_INUSE',
  Rsrved: 'INUSE',
  OffHook: 'INUSE',
  Dialing: 'INUSE',
  Ring: 'INUSE',
  Ringing: 'RINGING',
  Up: 'INUSE',
  Busy: 'BUSY',
  'Dialing Offhook': 'INUSE',
  'Pre-ring': 'RINGING',
  Unknown: 'UNKNOWN',
};

/** Which state wins when a device has several channels: the higher rank (ringing beside a call in use is RINGINUSE). */
const RANK: Record<DeviceStateName, number> = {
  INVALID: 0, UNKNOWN: 1, UNAVAILABLE: 2, NOT_INUSE: 3, ONHOLD: 4, RINGING: 5, INUSE: 6, BUSY: 7, RINGINUSE: 8,
};

/** Sums the states of a device's channels, in any order; INVALID when there are none. */
function aggregateDeviceStates(states: Iterable<DeviceStateName>): DeviceStateName {
  let out: DeviceStateName = 'INVALID';
  let ringing = false;
  let inUse = false;
  for (const s of states) {
    if (s === 'RINGING') ringing = true;
    else if (s === 'INUSE' || s === 'ONHOLD' || s === 'BUSY') inUse = true;
    if (ringing && inUse) out = 'RINGINUSE';
    else if (RANK[s] > RANK[out]) out = s;
  }
  return out;
}

/** What a channel adds to its endpoint: its device state (ONHOLD while we hold it) and whether it counts as a call in use. */
interface Share {
  state: DeviceStateName;
  inUse: boolean;
}

const shareOf = (ch: Channel): Share => ({
  state: ch.d.media.hold ? 'ONHOLD' : OF_CHANNEL[ch.d.state],
  inUse: ch.d.state === 'Up' || ch.d.state === 'Ring' || ch.d.state === 'Busy',
});

/**
 * The live channels of one of our endpoints, kept as counts so its state
 * is summed without walking every channel (an endpoint may carry
 * thousands under load). The state is computed as chan_pjsip does: with no
 * channels, what the fixture declares (online NOT_INUSE, offline
 * UNAVAILABLE, unknown UNKNOWN); otherwise the sum of its channels. With
 * `deviceStateBusyAt` set, exactly that many calls in use make it BUSY.
 */
export class EndpointTally {
  private readonly shares = new Map<Channel, Share>();
  private readonly counts = new Map<DeviceStateName, number>();
  private inUse = 0;

  constructor(private readonly fixture: EndpointFixture) {}

  /** Counts a channel as it is now (a live one), or takes it out (an ended one). */
  update(ch: Channel): void {
    const old = this.shares.get(ch);
    if (old) this.count(old, -1);
    if (ch.d.ended !== null) {
      this.shares.delete(ch);
      return;
    }
    const share = shareOf(ch);
    this.shares.set(ch, share);
    this.count(share, 1);
  }

  get state(): DeviceStateName {
    const f = this.fixture;
    const idle: DeviceStateName = f.state === 'offline' ? 'UNAVAILABLE' : f.state === 'online' ? 'NOT_INUSE' : 'UNKNOWN';
    if (!this.shares.size) return idle;
    // Asterisk compares with ==, not >=: more calls than the limit fall back to the sum.
    if (f.deviceStateBusyAt > 0 && this.inUse === f.deviceStateBusyAt) return 'BUSY';
    const sum = aggregateDeviceStates(this.counts.keys());
    return sum === 'INVALID' ? idle : sum;
  }

  private count(share: Share, by: 1 | -1): void {
    const n = (this.counts.get(share.state) ?? 0) + by;
    if (n > 0) this.counts.set(share.state, n);
    else this.counts.delete(share.state);
    if (share.inUse) this.inUse += by;
  }
}

/** A state an application may set, matched without regard to case (as Asterisk reads it); undefined otherwise. */
export function parseWritableDeviceState(value: string): DeviceStateName | undefined {
  const upper = value.toUpperCase();
  return WRITABLE_DEVICE_STATES.find((s) => s === upper);
}
