import { simOperations } from '../protocol/sim/operations.js';
import type { simTapOperations } from '../protocol/sim/tap.js';
import type { Connection } from './connection.js';
import { sendOperation, type OperationMethod } from './operation-request.js';
import { placeSimCall, type CallOptions, type SimCall } from './sim-call.js';

/** The plain request/answer operations (the event tap is a WebSocket, opened with a WebSocket client). */
type SimOperation = Exclude<(typeof simOperations)[number], { nickname: (typeof simTapOperations)[number]['nickname'] }>;

/** One method per operation of the simulation API, named by its nickname (placeCall, pressDtmf, heard, addFault, …). */
export type SimOperations = { [O in SimOperation as O['nickname']]: OperationMethod<O> };

/** The simulation API: every operation, plus `call`, which places a call and hands back a handle on it. */
export type SimClient = SimOperations & {
  /** Places an inbound call (placeCall) and returns a handle on the new channel. */
  call(options: CallOptions): Promise<SimCall>;
};

/** A typed client of the simulation API of the server at `conn`. */
export function createSimClient(conn: Connection): SimClient {
  const methods: Record<string, (args?: Record<string, unknown>) => Promise<unknown>> = {};
  for (const op of simOperations) if (!op.upgrade) methods[op.nickname] = (args) => sendOperation(conn, op as SimOperation, args);
  const client = methods as unknown as SimClient;
  client.call = (options) => placeSimCall(client, options);
  return client;
}
