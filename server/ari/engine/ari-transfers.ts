import type { ChannelTransferState } from '../../../protocol/ari/events/transfer-events.js';
import type { AriBridge, AriChannel, EventProps } from './ari-models.js';
import type { Bridge, Bridges } from './bridges.js';
import { CAUSE } from './causes.js';
import type { AriTransferRequest, Channel } from './channel.js';
import type { Engine } from './engine.js';
import { transferHandlingOf } from './transfer-handling.js';

/** The reports that end a transfer (a NOTIFY with a final status): only channel_progress leaves it open. */
const FINAL = new Set<string>(['channel_answered', 'channel_unavailable', 'channel_declined']);

/** What a SIP stack sends the far end at once when it accepts a REFER: a NOTIFY with 100 Trying. */
const TRYING = 100;

/**
 * Transfers left to the application (ari-only transfer handling, Asterisk
 * 22.3 / 21.8 / 20.13). The far end's REFER is accepted and answered with a
 * first NOTIFY (100 Trying), then announced as ChannelTransfer to the
 * applications of the channel it arrived on; nothing moves. The application
 * does the transfer itself and reports with transfer_progress: each report
 * reaches the far end as a NOTIFY and is announced again as ChannelTransfer
 * with its state. A final report ends the transfer; after channel_answered
 * the far end hangs up the call it sent the REFER on, as a phone does once
 * its transfer has succeeded.
 */
export class AriTransfers {
  constructor(
    private readonly eng: Engine,
    private readonly bridges: Pick<Bridges, 'bridgeOf' | 'json'>,
    /** NOTIFYs one far end keeps, the newest (SIM_FAR_END_KEEP). */
    private readonly keepNotifies: number,
  ) {}

  /** A NOTIFY with this SIP status reached the channel's far end: kept in its list, the oldest dropped beyond the bound. */
  notified(ch: Channel, status: number): void {
    const list = (ch.d.far.transferNotify ??= []);
    list.push(status);
    if (list.length > this.keepNotifies) list.splice(0, list.length - this.keepNotifies);
    this.eng.touch(ch);
  }

  /** The channel's far end transfers are the application's to carry out. */
  handles(ch: Channel): boolean {
    return ch.d.tech === 'PJSIP' && transferHandlingOf(ch, this.eng.fixtures.endpoints) === 'ari-only';
  }

  /** A blind REFER to `destination` (the user part of its Refer-To). */
  blind(ch: Channel, destination: string): void {
    this.accept(ch, { destination });
  }

  /**
   * A REFER with Replaces naming `other`, the far end's other call. Its
   * Refer-To carries the extension that call reached when the far end placed
   * it to us; a call we placed to the far end gives none.
   */
  attended(ch: Channel, other: Channel): void {
    this.accept(ch, {
      ...(other.d.direction === 'inbound' ? { destination: other.d.dialplan.exten } : {}),
      protocolId: other.d.protocolId,
      replaces: other.id,
    });
  }

  /** The application reported progress with transfer_progress (its NOTIFY has reached the far end). */
  reported(ch: Channel, state: string): void {
    const req = ch.d.ariTransfer;
    if (!req) return;
    this.announce(ch, req, state as ChannelTransferState);
    if (!FINAL.has(state)) return;
    delete ch.d.ariTransfer;
    this.eng.touch(ch);
    if (state === 'channel_answered') this.eng.schedule(ch, 'farHangup', 0, CAUSE.NORMAL);
  }

  private accept(ch: Channel, req: AriTransferRequest): void {
    ch.d.ariTransfer = req;
    this.notified(ch, TRYING);
    this.announce(ch, req, undefined);
  }

  /** ChannelTransfer as things are now: the channels still there, their bridges and bridge peers. */
  private announce(ch: Channel, req: AriTransferRequest, state: ChannelTransferState | undefined): void {
    const replaced = req.replaces ? this.eng.find(req.replaces) : undefined;
    const props: EventProps<'ChannelTransfer'> = {
      ...(state ? { state } : {}),
      refer_to: {
        requested_destination: {
          ...(req.protocolId !== undefined ? { protocol_id: req.protocolId } : {}),
          ...(req.destination !== undefined ? { destination: req.destination } : {}),
        },
        ...(replaced ? { destination_channel: this.eng.snapshot(replaced), ...this.surroundings(replaced) } : {}),
      },
      referred_by: { source_channel: this.eng.snapshot(ch), ...this.surroundings(ch) },
    };
    this.eng.emit('ChannelTransfer', props, this.eng.recipients(ch));
  }

  /** The channel's bridge, and the party it talks to there when there is exactly one. */
  private surroundings(ch: Channel): { bridge?: AriBridge; connected_channel?: AriChannel } {
    const b: Bridge | undefined = this.bridges.bridgeOf(ch);
    if (!b) return {};
    const others = b.d.channels.filter((id) => id !== ch.id).map((id) => this.eng.find(id)).filter((c): c is Channel => !!c);
    return { bridge: this.bridges.json(b), ...(others.length === 1 ? { connected_channel: this.eng.snapshot(others[0]!) } : {}) };
  }
}
