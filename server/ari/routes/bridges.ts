import * as op from '../../../protocol/ari/operations/bridges.js';
import * as vop from '../../../protocol/ari/operations/bridge-variables.js';
import type { AriBinder } from '../http/bind.js';
import type { Bridge } from '../engine/bridges.js';
import type { Telephony } from '../telephony.js';

export function mountBridges(b: AriBinder, t: Pick<Telephony, 'bridges' | 'bridgeVars' | 'playbacks' | 'recordings'>): void {
  const { bridges, bridgeVars, playbacks, recordings } = t;
  const json = (br: Bridge) => bridges.json(br);

  b.mount(op.listBridges, () => bridges.all().map(json));
  b.mount(op.createBridge, (a) => json(bridges.create(a.bridgeId, a.type, a.name)));
  b.mount(op.createBridgeWithId, (a) => json(bridges.create(a.bridgeId, a.type, a.name)));
  b.mount(op.getBridge, (a) => json(bridges.get(a.bridgeId)));
  b.mount(op.destroyBridge, (a) => bridges.destroy(a.bridgeId));
  b.mount(op.addChannel, (a) => bridges.addChannels(a.bridgeId, a.channel, { role: a.role, mute: a.mute, absorbDTMF: a.absorbDTMF }));
  b.mount(op.removeChannel, (a) => bridges.removeChannels(a.bridgeId, a.channel));
  b.mount(op.startBridgeMoh, (a) => bridges.startMoh(a.bridgeId, a.mohClass));
  b.mount(op.stopBridgeMoh, (a) => bridges.stopMoh(a.bridgeId));
  b.mount(vop.getBridgeVar, (a) => ({ value: bridgeVars.get(a.bridgeId, a.variable) }));
  b.mount(vop.setBridgeVar, (a) => bridgeVars.set(a.bridgeId, a.variable, a.value, a.report_events));
  b.mount(vop.getBridgeVars, (a) => ({ variables: bridgeVars.getMany(a.bridgeId, a.variables) }));
  b.mount(vop.setBridgeVars, (a) => bridgeVars.setMany(a.bridgeId, a.variables));

  const play = (a: { bridgeId: string; media: string[]; lang?: string | undefined; offsetms: number; skipms: number; playbackId?: string | undefined }) => {
    const br = bridges.get(a.bridgeId);
    const pb = playbacks.play(`bridge:${br.d.id}`, a, 'en');
    return { body: pb.json(), location: `/playbacks/${encodeURIComponent(pb.id)}` };
  };
  b.mount(op.playOnBridge, play);
  b.mount(op.playOnBridgeWithId, play);

  b.mount(op.recordBridge, (a) => {
    const br = bridges.get(a.bridgeId);
    const rec = recordings.record({ targetUri: `bridge:${br.d.id}`, frame: (tick) => bridges.mix(br, tick) }, a);
    return { body: rec.json(), location: `/recordings/live/${encodeURIComponent(rec.name)}` };
  });
}
