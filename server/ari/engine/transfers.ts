import { badRequest, conflict, notFound } from '../../errors.js';
import type { EventProps } from './ari-models.js';
import type { AriTransfers } from './ari-transfers.js';
import type { Bridge, Bridges } from './bridges.js';
import type { Calls } from './calls.js';
import type { Target } from './call-requests.js';
import { CAUSE } from './causes.js';
import type { Channel } from './channel.js';
import type { ChannelFactory } from './channel-factory.js';
import { findExtension } from './dialplan.js';
import type { DialplanStarter } from './dialplan-starter.js';
import type { BlindTransferStatus, BridgeBlindTransferPort } from './dialplan-transfers.js';
import type { Engine } from './engine.js';
import type { Variables } from './variables.js';

/** What every BridgeAttendedTransfer of one transfer carries, whatever its outcome. */
type AttendedProps = Pick<EventProps<'BridgeAttendedTransfer'>, 'transferer_first_leg' | 'transferer_second_leg' | 'is_external' | 'transferee' | 'transfer_target' | 'transferer_first_leg_bridge' | 'transferer_second_leg_bridge'>;

/** Where Asterisk points the Local pair that links two bridges in an attended transfer (it never runs there). */
const ATTENDED_LINK: Target = { kind: 'local', tech: 'Local', resource: '_attended@transfer', exten: '_attended', context: 'transfer' };

/**
 * Transfers the far end asks for (SIP REFER), as Asterisk performs them on
 * bridges that only allow bridge transfers (every application bridge): a
 * Local channel takes the transferer's place in the bridge, entering the
 * transferer's application first with replace_channel; the phone that sent
 * the REFER then hangs up its call. A blind transfer's Local channel runs
 * the target in the dialplan; an attended transfer's Local pair links the
 * two bridges. A channel whose transfer handling is ari-only leaves both
 * kinds to its application instead (AriTransfers).
 */
export class Transfers implements BridgeBlindTransferPort {
  constructor(
    private readonly eng: Engine,
    private readonly calls: Calls,
    private readonly make: ChannelFactory,
    private readonly pbx: DialplanStarter,
    private readonly bridges: Bridges,
    private readonly vars: Variables,
    private readonly ariOnly: Pick<AriTransfers, 'handles' | 'blind' | 'attended'>,
  ) {}

  private channel(id: string): Channel {
    const ch = this.eng.find(id);
    if (!ch) throw notFound('Channel not found');
    if (ch.d.state !== 'Up') throw conflict('Channel is not answered: there is no dialog to send REFER in');
    return ch;
  }

  /** The far end of `id` sends REFER to exten@context (context: TRANSFER_CONTEXT, else the endpoint's). */
  blind(id: string, exten: string | undefined, context: string | undefined): void {
    if (!exten) throw badRequest('exten is required');
    const ch = this.channel(id);
    // Left to the application, the REFER is not checked against our dialplan: the destination is the application's to interpret.
    if (this.ariOnly.handles(ch)) return this.ariOnly.blind(ch, exten);
    const ctx = context || ch.d.vars.TRANSFER_CONTEXT || this.eng.fixtures.endpoints.get(ch.d.endpoint.toLowerCase())?.context || 'default';
    // The PJSIP stack refuses a REFER to an extension that does not exist, before any transfer starts.
    if (!findExtension(this.eng.fixtures.dialplan, ctx, exten)) throw badRequest(`No such extension '${exten}' in context '${ctx}'`);
    // After a successful transfer the phone that sent the REFER hangs up its call.
    if (this.blindInBridge(ch, exten, ctx)) this.eng.schedule(ch, 'farHangup', 0, CAUSE.NORMAL);
  }

  /**
   * BlindTransfer() in the dialplan: the same transfer of the channel's
   * bridge peers, started by the channel itself (still is_external, as
   * Asterisk's application asks for it); the channel stays where it is.
   */
  fromDialplan(ch: Channel, exten: string, context: string): BlindTransferStatus {
    return this.blindInBridge(ch, exten, context) ? 'SUCCESS' : 'INVALID';
  }

  /** Moves the channel's bridge peers to exten@ctx by a Local channel and announces it; false (result Invalid) when there is nobody to move. */
  private blindInBridge(ch: Channel, exten: string, ctx: string): boolean {
    const b = this.bridges.bridgeOf(ch);
    const others = b ? this.others(b, ch) : [];
    const base = { channel: this.eng.snapshot(ch), exten, context: ctx, is_external: true };
    if (!b || !others.length) {
      // Not bridged, or alone in the bridge: Asterisk reports the attempt as invalid and nothing moves.
      const to = b ? this.involved(b, ch) : this.eng.recipients(ch);
      this.eng.emit('BridgeBlindTransfer', { ...base, result: 'Invalid', ...(b ? { bridge: this.bridges.json(b) } : {}) }, to);
      return false;
    }
    this.markTransfer(ch, others, 'BLINDTRANSFER');
    const transferee = others.length === 1 ? others[0] : undefined;
    const before = this.bridges.json(b);
    const one = this.make.allocate(this.make.resolve(`Local/${exten}@${ctx}`), undefined, undefined, ch.d.formats, { ...ch.d.caller });
    const two = this.calls.peerOf(one)!;
    this.eng.emit('BridgeBlindTransfer', {
      ...base, result: 'Success',
      ...(transferee ? { transferee: this.eng.snapshot(transferee) } : {}),
      replace_channel: this.eng.snapshot(one), bridge: before,
    }, this.involved(b, ch));
    this.replace(b, ch, one);
    // The other half runs the target with a copy of the first half's variables, as chan_local does.
    for (const [k, val] of Object.entries(one.d.vars)) two.d.vars[k] = val;
    two.d.caller = { ...one.d.caller };
    one.d.dialing = { dialstring: `${exten}@${ctx}`, caller: null, after: { kind: 'stay' }, quiet: true };
    this.eng.touch(one);
    this.eng.touch(two);
    this.pbx.start(two, ctx, exten, 1);
    return true;
  }

  /**
   * The far end completes an attended transfer: `id` is its call to the
   * party being transferred, `targetId` its call to the target. Two bridged
   * calls are linked by a Local pair; a bridged call and an unbridged one
   * join the bridge to whatever the unbridged call was running (see
   * toApplication); two unbridged calls are invalid.
   */
  attended(id: string, targetId: string): void {
    const first = this.channel(id);
    const second = this.channel(targetId);
    if (first === second) throw badRequest('The two calls must differ');
    if (this.ariOnly.handles(first)) return this.ariOnly.attended(first, second);
    const b1 = this.bridges.bridgeOf(first);
    const b2 = this.bridges.bridgeOf(second);
    const peer = (b: Bridge | undefined, ch: Channel) => {
      const o = b ? this.others(b, ch) : [];
      return o.length === 1 ? o[0] : undefined;
    };
    const transferee = peer(b1, first);
    const target = peer(b2, second);
    const props: AttendedProps = {
      transferer_first_leg: this.eng.snapshot(first), transferer_second_leg: this.eng.snapshot(second),
      is_external: true,
      ...(transferee ? { transferee: this.eng.snapshot(transferee) } : {}),
      ...(target ? { transfer_target: this.eng.snapshot(target) } : {}),
      ...(b1 ? { transferer_first_leg_bridge: this.bridges.json(b1) } : {}),
      ...(b2 ? { transferer_second_leg_bridge: this.bridges.json(b2) } : {}),
    };
    const to = b1 ? this.involved(b1, first) : this.eng.recipients(first);
    for (const app of b2 ? this.involved(b2, second) : this.eng.recipients(second)) to.add(app);
    const fail = () => this.eng.emit('BridgeAttendedTransfer', { ...props, result: 'Invalid', destination_type: 'fail' }, to);
    if (!b1 && !b2) return fail();
    if (!b1 || !b2) {
      const [bridged, unbridged, b] = b1 ? [first, second, b1] : [second, first, b2!];
      // Alone in its bridge, the bridged call has nobody to transfer.
      if (!this.others(b, bridged).length) return fail();
      return this.toApplication(bridged, unbridged, b, props, to);
    }
    this.markTransfer(first, this.others(b1, first), 'ATTENDEDTRANSFER');
    const one = this.make.allocate(ATTENDED_LINK, undefined, undefined, first.d.formats, { ...first.d.caller });
    const two = this.calls.peerOf(one)!;
    this.vars.write(one, 'ATTENDEDTRANSFER', first.d.name);
    // The second half goes straight into the target's bridge; it runs no dialplan, and both halves are up.
    for (const ch of [one, two]) {
      ch.d.state = 'Up';
      ch.d.answered = this.eng.clock.now();
      this.eng.touch(ch);
    }
    this.replace(b2, second, two);
    this.replace(b1, first, one);
    for (const app of [...this.eng.recipients(one), ...this.eng.recipients(two)]) to.add(app);
    this.eng.emit('BridgeAttendedTransfer', {
      ...props, result: 'Success', destination_type: 'link',
      destination_link_first_leg: this.eng.snapshot(one), destination_link_second_leg: this.eng.snapshot(two),
    }, to);
    for (const ch of [first, second]) this.eng.schedule(ch, 'farHangup', 0, CAUSE.NORMAL);
  }

  /**
   * One call bridged, the other not (application bridges only transfer as
   * bridges, so Asterisk always does it this way): a Local pair is made; its
   * second half takes the unbridged call's place in what that call was
   * running (its Stasis application, with replace_channel, or its dialplan
   * location), its first half takes the bridged call's place in the bridge.
   * Announced with destination_type application, naming the application the
   * unbridged call was in. Both of the far end's calls then hang up.
   */
  private toApplication(bridged: Channel, unbridged: Channel, b: Bridge, props: AttendedProps, to: Set<string>): void {
    const app = unbridged.d.dialplan.appName;
    this.markTransfer(bridged, this.others(b, bridged), 'ATTENDEDTRANSFER');
    const one = this.make.allocate(ATTENDED_LINK, undefined, undefined, bridged.d.formats, { ...bridged.d.caller });
    const two = this.calls.peerOf(one)!;
    this.vars.write(one, 'ATTENDEDTRANSFER', bridged.d.name);
    for (const ch of [one, two]) {
      ch.d.state = 'Up';
      ch.d.answered = this.eng.clock.now();
      this.eng.touch(ch);
    }
    if (unbridged.d.stasis) this.takeApp(unbridged, two);
    else if (unbridged.d.pbx) {
      // The dialplan goes on on the Local half, from the application the call was running.
      const { context, exten, priority } = unbridged.d.dialplan;
      this.eng.cancel(unbridged, 'pbx');
      unbridged.d.pbx = false;
      this.pbx.start(two, context, exten, priority);
    }
    this.replace(b, bridged, one);
    for (const a of [...this.eng.recipients(one), ...this.eng.recipients(two)]) to.add(a);
    this.eng.emit('BridgeAttendedTransfer', {
      ...props, result: 'Success', destination_type: 'application', destination_application: app, replace_channel: this.eng.snapshot(one),
    }, to);
    for (const ch of [bridged, unbridged]) this.eng.schedule(ch, 'farHangup', 0, CAUSE.NORMAL);
  }

  private others(b: Bridge, ch: Channel): Channel[] {
    return b.d.channels.filter((x) => x !== ch.id).map((x) => this.eng.find(x)).filter((c): c is Channel => !!c);
  }

  /** Apps that hear of a transfer: subscribed to the transferer, the bridge, or any of its members. */
  private involved(b: Bridge, ch: Channel): Set<string> {
    const to = this.bridges.recipients(b);
    for (const c of [ch, ...this.others(b, ch)]) for (const app of this.eng.recipients(c)) to.add(app);
    return to;
  }

  /** BLINDTRANSFER / ATTENDEDTRANSFER on the bridge's channels: the transferer gets its peer's name (its BRIDGEPEER), the others the transferer's. */
  private markTransfer(ch: Channel, others: Channel[], name: 'BLINDTRANSFER' | 'ATTENDEDTRANSFER'): void {
    this.vars.write(ch, name, others.map((o) => o.d.name).join(','));
    for (const o of others) this.vars.write(o, name, ch.d.name);
  }

  /** The Local channel enters the replaced channel's app (StasisStart with replace_channel), then takes its place in the bridge. */
  private replace(b: Bridge, replaced: Channel, local: Channel): void {
    this.takeApp(replaced, local);
    this.bridges.swap(b, local, replaced);
  }

  /** The Local channel enters the application the replaced channel is in, with replace_channel (nothing when that app has gone). */
  private takeApp(replaced: Channel, local: Channel): void {
    const app = replaced.d.stasis?.app;
    if (app && this.eng.apps.isActive(app)) {
      this.calls.setLocation(local, { appName: 'Stasis', appData: app });
      local.d.stasis = { app, args: [] };
      local.d.lastApp = app;
      this.eng.subscribe(local, app);
      this.eng.emitChannel(local, 'StasisStart', { args: [], replace_channel: this.eng.snapshot(replaced) }, [app]);
    }
  }
}
