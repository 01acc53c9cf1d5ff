import { badRequest, conflict, notFound } from '../../errors.js';
import type { Bridges } from './bridges.js';
import type { Calls } from './calls.js';
import { CAUSE } from './causes.js';
import type { Channel } from './channel.js';
import type { ChannelFactory } from './channel-factory.js';
import { findExtension } from './dialplan.js';
import type { DialplanStarter } from './dialplan-starter.js';
import type { Engine } from './engine.js';

/**
 * Transfers the far end asks for. A blind transfer (a SIP REFER without
 * Replaces) out of a Stasis bridge goes as Asterisk's does for bridges that
 * only allow bridge transfers: a Local channel to the target takes the
 * transferer's place in the bridge (it enters the transferer's application
 * with replace_channel first), its other half runs the dialplan at the
 * target, and the phone that sent the REFER then hangs up its call.
 */
export class Transfers {
  constructor(
    private readonly eng: Engine,
    private readonly calls: Calls,
    private readonly make: ChannelFactory,
    private readonly pbx: DialplanStarter,
    private readonly bridges: Bridges,
  ) {}

  /** The far end of `id` sends REFER to exten@context (context: TRANSFER_CONTEXT, else the endpoint's). */
  blind(id: string, exten: string | undefined, context: string | undefined): void {
    const ch = this.eng.find(id);
    if (!ch) throw notFound('Channel not found');
    if (!exten) throw badRequest('exten is required');
    if (ch.d.state !== 'Up') throw conflict('Channel is not answered: there is no dialog to send REFER in');
    const ctx = context || ch.d.vars.TRANSFER_CONTEXT || this.eng.fixtures.endpoints.get(ch.d.endpoint.toLowerCase())?.context || 'default';
    // The PJSIP stack refuses a REFER to an extension that does not exist, before any transfer starts.
    if (!findExtension(this.eng.fixtures.dialplan, ctx, exten)) throw badRequest(`No such extension '${exten}' in context '${ctx}'`);
    const b = this.bridges.bridgeOf(ch);
    if (!b) {
      // Not bridged: Asterisk reports the attempt as invalid and nothing moves.
      this.eng.emit('BridgeBlindTransfer', { channel: this.eng.snapshot(ch), exten, context: ctx, result: 'Invalid', is_external: true }, this.eng.recipients(ch));
      return;
    }
    const others = b.d.channels.filter((x) => x !== ch.id).map((x) => this.eng.find(x)).filter((c): c is Channel => !!c);
    const transferee = others.length === 1 ? others[0] : undefined;
    const before = this.bridges.json(b);
    const one = this.make.allocate(this.make.resolve(`Local/${exten}@${ctx}`), undefined, undefined, ch.d.formats, { ...ch.d.caller });
    const two = this.calls.peerOf(one)!;
    // Apps hear of it when subscribed to the transferer, the bridge or any of its members.
    const to = this.bridges.recipients(b);
    for (const c of [ch, ...others]) for (const app of this.eng.recipients(c)) to.add(app);
    this.eng.emit('BridgeBlindTransfer', {
      channel: this.eng.snapshot(ch), exten, context: ctx, result: 'Success', is_external: true,
      ...(transferee ? { transferee: this.eng.snapshot(transferee) } : {}),
      replace_channel: this.eng.snapshot(one), bridge: before,
    }, to);
    const app = ch.d.stasis?.app;
    if (app && this.eng.apps.isActive(app)) {
      // The Local channel runs Stasis in the transferer's app before it joins the bridge in its place.
      this.calls.setLocation(one, { appName: 'Stasis', appData: app });
      one.d.stasis = { app, args: [] };
      one.d.lastApp = app;
      this.eng.subscribe(one, app);
      this.eng.emitChannel(one, 'StasisStart', { args: [], replace_channel: this.eng.snapshot(ch) }, [app]);
    }
    this.bridges.swap(b, one, ch);
    // The other half runs the target with a copy of the first half's variables, as chan_local does.
    for (const [k, val] of Object.entries(one.d.vars)) two.d.vars[k] = val;
    two.d.caller = { ...one.d.caller };
    one.d.dialing = { dialstring: `${exten}@${ctx}`, caller: null, after: { kind: 'stay' }, quiet: true };
    this.eng.touch(one);
    this.eng.touch(two);
    this.pbx.start(two, ctx, exten, 1);
    // The transferring phone ends its call once the transfer is accepted.
    this.eng.schedule(ch, 'farHangup', 0, CAUSE.NORMAL);
  }
}
