import type { SimChannel } from '../../protocol/sim/models.js';
import * as op from '../../protocol/sim/operations.js';
import { notFound } from '../errors.js';
import type { AriBinder } from '../ari/http/bind.js';
import type { ChannelRepo } from '../db/repos/channel-repo.js';
import type { Telephony } from '../ari/telephony.js';
import { mountSimClock } from './clock-routes.js';
import { mountSimEndpoints } from './endpoint-routes.js';
import { mountSimFaults } from './fault-routes.js';
import { mountSimHeard } from './heard-routes.js';
import { boundedHistory } from './history.js';

/** The simulation API: the far end's side of calls. */
export function mountSim(b: AriBinder, t: Pick<Telephony, 'engine' | 'farEnd' | 'transfers' | 'registrations' | 'endpointMessages' | 'clockControl' | 'faults' | 'heard' | 'heardAudio' | 'farScripts' | 'endpointScripts'>, repo: ChannelRepo, historyMaxBytes: number): void {
  const { engine, farEnd, transfers } = t;

  b.mount(op.placeCall, (a) => engine.snapshot(t.farScripts.call(a)));
  b.mount(op.getSimChannel, (a) => farEnd.view(a.channelId));
  b.mount(op.farAnswer, (a) => farEnd.answer(a.channelId));
  b.mount(op.farHangup, (a) => farEnd.hangup(a.channelId, a.cause, a.reason));
  b.mount(op.farDtmf, (a) => farEnd.dtmf(a.channelId, a.dtmf, a.duration, a.between));
  b.mount(op.farHold, (a) => farEnd.hold(a.channelId, true, a.musicclass));
  b.mount(op.farUnhold, (a) => farEnd.hold(a.channelId, false));
  b.mount(op.farTalkStart, (a) => farEnd.talk(a.channelId, true));
  b.mount(op.farTalkStop, (a) => farEnd.talk(a.channelId, false));
  b.mount(op.farBlindTransfer, (a) => transfers.blind(a.channelId, a.exten, a.context));
  b.mount(op.farAttendedTransfer, (a) => transfers.attended(a.channelId, a.target));
  b.mount(op.setFarAudio, (a) => farEnd.setAudio(a.channelId, a.source, a));
  b.mount(op.uploadFarAudio, (a) => farEnd.uploadAudio(a.channelId, a.audio, a.loop));
  b.mount(op.history, (a) => {
    engine.flush(); // channels that just ended are written before we read them back
    const rows = repo.historyRows(a.limit, a.before);
    if (!rows) throw notFound('Channel not found in history');
    return boundedHistory(rows, historyMaxBytes);
  });
  mountSimEndpoints(b, t);
  mountSimClock(b, t);
  mountSimFaults(b, t);
  mountSimHeard(b, t, repo);
}
