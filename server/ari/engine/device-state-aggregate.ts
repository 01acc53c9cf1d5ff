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

/** Sums the states of a device's channels; INVALID when there are none. */
export function aggregateDeviceStates(states: Iterable<DeviceStateName>): DeviceStateName {
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

/**
 * The state of one of our endpoints, computed as chan_pjsip does: with no
 * channels it is what the fixture declares (online NOT_INUSE, offline
 * UNAVAILABLE, unknown UNKNOWN); otherwise the sum of its channels, a
 * channel we put on hold counting as ONHOLD. With `deviceStateBusyAt` set,
 * exactly that many answered (or incoming, or busy) channels make it BUSY.
 */
export function endpointDeviceState(f: EndpointFixture, channels: Iterable<Channel>): DeviceStateName {
  const idle: DeviceStateName = f.state === 'offline' ? 'UNAVAILABLE' : f.state === 'online' ? 'NOT_INUSE' : 'UNKNOWN';
  const states: DeviceStateName[] = [];
  let inUse = 0;
  for (const ch of channels) {
    states.push(ch.d.media.hold ? 'ONHOLD' : OF_CHANNEL[ch.d.state]);
    if (ch.d.state === 'Up' || ch.d.state === 'Ring' || ch.d.state === 'Busy') inUse++;
  }
  if (!states.length) return idle;
  // Asterisk compares with ==, not >=: more calls than the limit fall back to the sum.
  if (f.deviceStateBusyAt > 0 && inUse === f.deviceStateBusyAt) return 'BUSY';
  const sum = aggregateDeviceStates(states);
  return sum === 'INVALID' ? idle : sum;
}

/** A state an application may set, matched without regard to case (as Asterisk reads it); undefined otherwise. */
export function parseWritableDeviceState(value: string): DeviceStateName | undefined {
  const upper = value.toUpperCase();
  return WRITABLE_DEVICE_STATES.find((s) => s === upper);
}
