import { conflict } from '../../errors.js';
import { rtpStatistics } from '../engine/rtp-stats.js';
import * as op from '../../../protocol/ari/operations/channels.js';
import * as extra from '../../../protocol/ari/operations/channel-additions.js';
import type { AriBinder } from '../http/bind.js';
import type { Channel } from '../engine/channel.js';
import type { Telephony } from '../telephony.js';

/** The channels resource (control operations; media operations arrive with the media engine). */
export function mountChannels(b: AriBinder, t: Pick<Telephony, 'engine' | 'calls' | 'control'>): void {
  const { engine, calls, control } = t;
  const snap = (ch: Channel) => engine.snapshot(ch);

  b.mount(op.list, () => [...engine.all()].map(snap));
  b.mount(op.originate, (a) => snap(calls.originate(a)));
  b.mount(op.originateWithId, (a) => snap(calls.originate(a)));
  b.mount(op.create, (a) => snap(calls.create(a)));
  b.mount(op.get, (a) => snap(control.channel(a.channelId)));
  b.mount(op.hangup, (a) => control.hangup(a.channelId, a.reason, a.reason_code));
  b.mount(op.continueInDialplan, (a) => control.continueInDialplan(a.channelId, a));
  b.mount(op.move, (a) => control.move(a.channelId, a.app, a.appArgs));
  b.mount(op.redirect, (a) => control.redirect(a.channelId, a.endpoint));
  b.mount(op.answer, (a) => control.answer(a.channelId));
  b.mount(op.ring, (a) => control.ring(a.channelId, true));
  b.mount(op.ringStop, (a) => control.ring(a.channelId, false));
  b.mount(op.sendDTMF, (a) => control.sendDtmf(a.channelId, a.dtmf, a));
  b.mount(op.mute, (a) => control.mute(a.channelId, a.direction, true));
  b.mount(op.unmute, (a) => control.mute(a.channelId, a.direction, false));
  b.mount(op.hold, (a) => control.hold(a.channelId, true));
  b.mount(op.unhold, (a) => control.hold(a.channelId, false));
  b.mount(op.startMoh, (a) => control.moh(a.channelId, a.mohClass, true));
  b.mount(op.stopMoh, (a) => control.moh(a.channelId, undefined, false));
  b.mount(op.startSilence, (a) => control.silence(a.channelId, true));
  b.mount(op.stopSilence, (a) => control.silence(a.channelId, false));
  b.mount(op.getChannelVar, (a) => ({ value: control.variables.get(a.channelId, a.variable) }));
  b.mount(op.setChannelVar, (a) => control.variables.set(a.channelId, a.variable, a.value, a.report_events));
  b.mount(extra.getChannelVars, (a) => ({ variables: control.variables.getMany(a.channelId, a.variables) }));
  b.mount(extra.setChannelVars, (a) => control.variables.setMany(a.channelId, a.variables));
  b.mount(extra.progress, (a) => control.progress(a.channelId));
  b.mount(extra.transferProgress, (a) => control.transferProgress(a.channelId, a.states));
  b.mount(op.dial, (a) => control.dial(a.channelId, a.caller, a.timeout));
}

/** The channels resource's media operations: play, record, snoop, RTP statistics, external media. */
export function mountChannelMedia(b: AriBinder, t: Pick<Telephony, 'engine' | 'calls' | 'control' | 'playbacks' | 'recordings' | 'router' | 'snoops' | 'external' | 'faults'>): void {
  const { engine, calls, control, playbacks, recordings, router, snoops, external } = t;
  const snap = (ch: Channel) => engine.snapshot(ch);

  const play = (a: { channelId: string; media: string[] | undefined; lang?: string | undefined; offsetms: number; skipms: number; playbackId?: string | undefined }) => {
    const ch = control.ready(a.channelId);
    const pb = playbacks.play(`channel:${ch.id}`, a, ch.d.language);
    return { body: pb.json(), location: `/playbacks/${encodeURIComponent(pb.id)}` };
  };
  b.mount(op.play, play);
  b.mount(op.playWithId, play);

  b.mount(op.record, (a) => {
    const ch = control.controlled(a.channelId);
    const rec = recordings.record(
      {
        targetUri: `channel:${ch.id}`,
        channel: ch,
        frame: (tick) => router.inbound(ch, tick),
        beep: (samples) => router.overlay(ch, samples),
        start: () => {
          if (ch.state === 'Ring') calls.answer(ch);
          return ch.state === 'Up' ? undefined : 'Failed to answer channel';
        },
      },
      a,
      ch.rt.queue,
      () => {
        // The spec refuses a bridged channel at once (Asterisk fails the recording later).
        if (ch.d.bridge) throw conflict('Channel is currently bridged');
      },
    );
    return { body: rec.json(), location: `/recordings/live/${encodeURIComponent(rec.name)}` };
  });

  const snoop = (a: { channelId: string; spy: string; whisper: string; app?: string | undefined; appArgs?: string | undefined; snoopId?: string | undefined }) =>
    snap(snoops.snoop(a.channelId, { ...a, app: a.app ?? '' }));
  b.mount(op.snoopChannel, snoop);
  b.mount(op.snoopChannelWithId, snoop);

  b.mount(op.rtpstatistics, (a) => rtpStatistics(control.channel(a.channelId), engine.fixtures, external, engine.clock, (e) => t.faults.lossPercent(e)));
  b.mount(op.externalMedia, async (a) => snap(await external.create(a)));
}
