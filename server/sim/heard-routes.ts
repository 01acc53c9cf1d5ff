import * as op from '../../protocol/sim/heard.js';
import { notFound } from '../errors.js';
import type { AriBinder } from '../ari/http/bind.js';
import type { Channel, ChannelData } from '../ari/engine/channel.js';
import type { ChannelRepo } from '../db/repos/channel-repo.js';
import type { Telephony } from '../ari/telephony.js';

/** The simulation API for what a channel's far end was sent: the list, and the audio. */
export function mountSimHeard(b: AriBinder, t: Pick<Telephony, 'engine' | 'heard' | 'heardAudio'>, repo: ChannelRepo): void {
  const { engine, heard, heardAudio } = t;

  /** A live channel (by id or name), else the newest ended channel with that id, from the history. */
  const find = (id: string): { live?: Channel; d: ChannelData } => {
    const live = engine.find(id);
    if (live) return { live, d: live.d };
    engine.flush(); // a channel that just ended is written before it is read back
    const row = repo.ended(id);
    if (!row) throw notFound('Channel not found');
    return { d: JSON.parse(row.data) as ChannelData };
  };

  b.mount(op.getHeard, (a) => heard.items(find(a.channelId)));
  b.mount(op.getHeardAudio, (a) => {
    const ch = find(a.channelId);
    return heardAudio.wav(ch.live, ch.d.id);
  });
}
