import { notFound } from '../../errors.js';
import type { Fixtures } from '../fixtures.js';
import { FRAME_MS } from '../media/pcm.js';
import type { Clock } from '../time/clock.js';
import type { Channel } from './channel.js';
import { ssrcOf, type ExternalMedia } from './external-media.js';
import type { AriRtpStat } from './ari-models.js';

const BYTES_PER_PACKET: Record<string, number> = { ulaw: 160, alaw: 160, slin: 320, slin16: 640 };

/**
 * RTP statistics of a channel, from the media it really moved: an external
 * media channel reports its stream's counters; a SIP channel, the 20 ms
 * packets exchanged since it was answered, with the loss, jitter and round
 * trip of its endpoint's network profile. Channels without RTP (Local,
 * Snoop) have none: 404, as the spec lists.
 */
export function rtpStatistics(ch: Channel, fixtures: Fixtures, external: ExternalMedia, clock: Clock, faultLoss?: (endpoint: string) => number | undefined): AriRtpStat {
  const ext = ch.d.external?.encapsulation === 'rtp' ? external.stats(ch) : undefined;
  if (ch.d.external && !ext) throw notFound('RTP info not found');
  if (ext) {
    const j = ext.rx.jitterSeconds;
    return {
      txcount: ext.tx.packets,
      rxcount: ext.rx.packets,
      txjitter: 0,
      rxjitter: j,
      txploss: 0,
      rxploss: ext.rx.lost,
      local_maxjitter: ext.rx.maxJitter,
      local_minjitter: Number.isFinite(ext.rx.minJitter) ? ext.rx.minJitter : 0,
      local_normdevjitter: j,
      local_stdevjitter: 0,
      local_ssrc: ext.ssrc,
      remote_ssrc: ext.rx.ssrc,
      txoctetcount: ext.tx.octets,
      rxoctetcount: ext.rx.octets,
      channel_uniqueid: ch.id,
    };
  }
  const ep = ch.d.tech === 'PJSIP' ? fixtures.endpoints.get(ch.d.endpoint.toLowerCase()) : undefined;
  if (!ep) throw notFound('RTP info not found');
  const elapsed = ch.d.answered !== null ? clock.simSince(ch.d.answered) : 0;
  const packets = Math.floor(elapsed / FRAME_MS);
  // The fixture's default for `rtp` is an empty object (valibot does not parse defaults), so fill its fields here.
  const profile: { jitterMs?: number; lossPercent?: number; rttMs?: number } = ep.rtp;
  const jitterMs = profile.jitterMs ?? 2;
  // A media_loss fault on the endpoint takes the place of its profile's loss while it is in place.
  const lossPercent = faultLoss?.(ep.key) ?? profile.lossPercent ?? 0;
  const rttMs = profile.rttMs ?? 20;
  const lost = Math.round((packets * lossPercent) / 100);
  const jitter = jitterMs / 1000;
  const bytes = BYTES_PER_PACKET[ep.codec] ?? 160;
  return {
    txcount: packets,
    rxcount: packets - lost,
    txjitter: jitter,
    rxjitter: jitter,
    remote_maxjitter: jitter * 2,
    remote_minjitter: 0,
    remote_normdevjitter: jitter,
    remote_stdevjitter: jitter / 3,
    local_maxjitter: jitter * 2,
    local_minjitter: 0,
    local_normdevjitter: jitter,
    local_stdevjitter: jitter / 3,
    txploss: lost,
    rxploss: lost,
    remote_maxrxploss: lossPercent,
    remote_minrxploss: 0,
    remote_normdevrxploss: lossPercent,
    remote_stdevrxploss: 0,
    local_maxrxploss: lossPercent,
    local_minrxploss: 0,
    local_normdevrxploss: lossPercent,
    local_stdevrxploss: 0,
    rtt: rttMs / 1000,
    maxrtt: rttMs / 1000,
    minrtt: rttMs / 1000,
    normdevrtt: rttMs / 1000,
    stdevrtt: 0,
    local_ssrc: ssrcOf(ch.id),
    remote_ssrc: ssrcOf(`${ch.id}:remote`),
    txoctetcount: packets * bytes,
    rxoctetcount: (packets - lost) * bytes,
    channel_uniqueid: ch.id,
  };
}
