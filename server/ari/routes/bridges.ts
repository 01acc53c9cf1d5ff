import * as op from '../../../protocol/ari/operations/bridges.js';
import * as vop from '../../../protocol/ari/operations/bridge-variables.js';
import type { AriBinder } from '../http/bind.js';
import type { Bridge } from '../engine/bridges.js';
import type { Playback } from '../engine/playbacks.js';
import type { Telephony } from '../telephony.js';

export function mountBridges(b: AriBinder, t: Pick<Telephony, 'bridges' | 'bridgeMedia' | 'bridgeVars'>): void {
  const { bridges, bridgeMedia, bridgeVars } = t;
  const json = (br: Bridge) => bridges.json(br);
  const playback = (pb: Playback) => ({ body: pb.json(), location: `/playbacks/${encodeURIComponent(pb.id)}` });

  b.mount(op.listBridges, () => bridges.all().map(json));
  b.mount(op.createBridge, (a) => json(bridges.create(a.bridgeId, a.type, a.name)));
  b.mount(op.createBridgeWithId, (a) => json(bridges.create(a.bridgeId, a.type, a.name)));
  b.mount(op.getBridge, (a) => json(bridges.get(a.bridgeId)));
  b.mount(op.destroyBridge, (a) => bridges.destroy(a.bridgeId));
  b.mount(op.addChannel, (a) => bridges.addChannels(a.bridgeId, a.channel, { role: a.role, mute: a.mute, absorbDTMF: a.absorbDTMF }));
  b.mount(op.removeChannel, (a) => bridges.removeChannels(a.bridgeId, a.channel));
  b.mount(op.setVideoSource, (a) => bridges.setVideoSource(a.bridgeId, a.channelId));
  b.mount(op.clearVideoSource, (a) => bridges.clearVideoSource(a.bridgeId));
  b.mount(op.startBridgeMoh, (a) => bridges.startMoh(a.bridgeId, a.mohClass));
  b.mount(op.stopBridgeMoh, (a) => bridges.stopMoh(a.bridgeId));
  b.mount(vop.getBridgeVar, (a) => ({ value: bridgeVars.get(a.bridgeId, a.variable) }));
  b.mount(vop.setBridgeVar, (a) => bridgeVars.set(a.bridgeId, a.variable, a.value, a.report_events));
  b.mount(vop.getBridgeVars, (a) => ({ variables: bridgeVars.getMany(a.bridgeId, a.variables) }));
  b.mount(vop.setBridgeVars, (a) => bridgeVars.setMany(a.bridgeId, a.variables));
  b.mount(op.playOnBridge, (a) => playback(bridgeMedia.play(a.bridgeId, a)));
  b.mount(op.playOnBridgeWithId, (a) => playback(bridgeMedia.play(a.bridgeId, a)));
  b.mount(op.recordBridge, (a) => {
    const rec = bridgeMedia.record(a.bridgeId, a);
    return { body: rec.json(), location: `/recordings/live/${encodeURIComponent(rec.name)}` };
  });
}
