import { CAUSE } from './causes.js';
import type { Channel } from './channel.js';
import type { Engine } from './engine.js';
import { splitArgs } from './variables.js';

/** How long, in simulated ms, a far end takes to answer a REFER and report its final outcome in a NOTIFY. */
export const REFER_OUTCOME_MS = 200;

/** Cause of the far end's hangup after a 302 sent it elsewhere (ARI redirect ends an unanswered call the same way). */
const REDIRECTED = 23;

/**
 * What Transfer() comes to: the variables it sets once the far end has
 * answered (after `afterMs` simulated ms), and the cause the far end hangs
 * up with afterwards when the transfer succeeded.
 */
export interface TransferOutcome {
  afterMs: number;
  sets: Array<[string, string]>;
  farHangup?: number;
}

/** BlindTransfer()'s outcome, as BLINDTRANSFERSTATUS reports it. */
export type BlindTransferStatus = 'SUCCESS' | 'FAILURE' | 'INVALID' | 'NOTPERMITTED';

/** The bridge side of BlindTransfer(): the transfer of everyone bridged with the channel (Transfers owns it). */
export interface BridgeBlindTransferPort {
  fromDialplan(ch: Channel, exten: string, context: string): BlindTransferStatus;
}

/**
 * Transfer() and BlindTransfer(). Transfer([Tech/]dest) asks the channel's
 * own far end to go elsewhere: only a PJSIP channel can (others report
 * UNSUPPORTED); an unanswered inbound call is answered with a 302, an
 * answered one is sent a REFER whose outcome is the far end's (its
 * endpoint's sim_refer_status). The far end keeps the destination it was
 * sent (redirected_to), and after a successful transfer it hangs up.
 * BlindTransfer(exten[,context]) moves whoever the channel is bridged with.
 */
export class DialplanTransfers {
  constructor(
    private readonly eng: Engine,
    private readonly bridge: BridgeBlindTransferPort,
  ) {}

  transfer(ch: Channel, data: string): TransferOutcome {
    const failed = (status: string): TransferOutcome => ({ afterMs: 0, sets: [['TRANSFERSTATUS', status]] });
    const dest = data.trim();
    if (!dest) return failed('FAILURE');
    const slash = dest.indexOf('/');
    // A Tech/ prefix restricts the transfer to channels of that technology.
    if (slash > 0 && dest.slice(0, slash).toLowerCase() !== ch.d.tech.toLowerCase()) return failed('FAILURE');
    if (ch.d.tech !== 'PJSIP') return failed('UNSUPPORTED');
    ch.d.far.redirectedTo = dest;
    this.eng.touch(ch);
    const done = (status: string, protocol: number) => [['TRANSFERSTATUS', status], ['TRANSFERSTATUSPROTOCOL', String(protocol)]] as Array<[string, string]>;
    // Not answered yet: the far end gets a 302 and its call ends there.
    if (ch.d.state !== 'Up') return { afterMs: 0, sets: done('SUCCESS', 0), farHangup: REDIRECTED };
    const status = this.eng.fixtures.endpoints.get(ch.d.endpoint.toLowerCase())?.referStatus ?? 200;
    if (status >= 300) return { afterMs: REFER_OUTCOME_MS, sets: done('FAILURE', status) };
    return { afterMs: REFER_OUTCOME_MS, sets: done('SUCCESS', 0), farHangup: CAUSE.NORMAL };
  }

  blindTransfer(ch: Channel, data: string): BlindTransferStatus {
    const [exten = '', context = ''] = splitArgs(data).map((s) => s.trim());
    if (!exten) return 'FAILURE';
    return this.bridge.fromDialplan(ch, exten, context || ch.d.dialplan.context);
  }
}
