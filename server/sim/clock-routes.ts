import * as op from '../../protocol/sim/clock-operations.js';
import type { AriBinder } from '../ari/http/bind.js';
import type { Telephony } from '../ari/telephony.js';

/** The simulation API for the clock: where it stands, and moving a virtual one on. */
export function mountSimClock(b: AriBinder, t: Pick<Telephony, 'clockControl'>): void {
  b.mount(op.getSimClock, () => t.clockControl.view());
  b.mount(op.advanceSimClock, (a) => t.clockControl.advance(a));
}
