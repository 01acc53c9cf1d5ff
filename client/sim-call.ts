import type { ModelOf } from '../protocol/model.js';
import type { Channel } from '../protocol/ari/models/channel.js';
import type { HeardItem } from '../protocol/sim/heard.js';
import type { SimChannel } from '../protocol/sim/models.js';
import type { ScriptStep } from '../protocol/sim/script.js';
import type { farDtmf, farHangup, getSimChannel, placeCall } from '../protocol/sim/operations.js';
import type { getHeard } from '../protocol/sim/heard.js';
import type { OperationMethod } from './operation-request.js';

/** How to place a call: placeCall's parameters, with `app` as a shorthand for the STASIS_APP variable. */
export interface CallOptions {
  /** The calling endpoint, e.g. PJSIP/alice. */
  endpoint: string;
  /** The extension dialled (default s). */
  extension?: string;
  /** The dialplan context (default: the endpoint's). */
  context?: string;
  callerId?: string;
  channelId?: string;
  redirectingFrom?: string;
  /** Channel variables set before the dialplan runs. */
  variables?: Record<string, string>;
  /** The Stasis application the bundled dialplan sends the call to (sets STASIS_APP). */
  app?: string;
  /** What the caller does, step by step (README, "Scripted far ends"). */
  script?: ScriptStep[];
}

/** A call placed through the simulation API, seen from its far end. */
export interface SimCall {
  /** The channel's id. */
  readonly id: string;
  /** The channel as placeCall answered it (state Ring). */
  readonly channel: ModelOf<typeof Channel>;
  /** What the caller was sent so far, oldest first (also once the call has ended). */
  heard(): Promise<ModelOf<typeof HeardItem>[]>;
  /** What the caller perceives now and where its script is (the channel must be live). */
  state(): Promise<ModelOf<typeof SimChannel>>;
  /** The caller presses digits. */
  dtmf(digits: string, timing?: { duration?: number; between?: number }): Promise<void>;
  /** The caller hangs up (Q.850 cause, default 16). */
  hangup(cause?: number): Promise<void>;
}

/** The operations a call handle uses. */
interface CallMethods {
  placeCall: OperationMethod<typeof placeCall>;
  heard: OperationMethod<typeof getHeard>;
  getChannel: OperationMethod<typeof getSimChannel>;
  pressDtmf: OperationMethod<typeof farDtmf>;
  hangup: OperationMethod<typeof farHangup>;
}

/** Places the call and wraps the channel it made. */
export async function placeSimCall(sim: CallMethods, options: CallOptions): Promise<SimCall> {
  const { app, variables, ...rest } = options;
  const vars = app === undefined ? variables : { ...variables, STASIS_APP: app };
  const channel = await sim.placeCall({ ...rest, ...(vars ? { variables: vars } : {}) });
  const channelId = channel.id;
  return {
    id: channelId,
    channel,
    heard: async () => (await sim.heard({ channelId })).items,
    state: () => sim.getChannel({ channelId }),
    dtmf: (dtmf, timing) => sim.pressDtmf({ channelId, dtmf, ...timing }),
    hangup: (cause) => sim.hangup({ channelId, ...(cause === undefined ? {} : { cause }) }),
  };
}
