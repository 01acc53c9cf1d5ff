import type { VariableInput } from '../../../protocol/operation.js';
import type { EndpointFixture } from '../fixtures.js';

/** Asterisk's limit on client-supplied unique ids. */
export const MAX_UNIQUEID = 149;

/** What an endpoint string names: a fixture far end, a Local channel into the dialplan, or a channel of one of our drivers (WebSocket). */
export type Target =
  | { kind: 'fixture'; tech: string; resource: string; fixture: EndpointFixture }
  | { kind: 'local'; tech: 'Local'; resource: string; exten: string; context: string }
  | { kind: 'driver'; tech: string; resource: string };

/** What every new outgoing channel needs (POST /channels and /channels/create). */
export interface NewCallRequest {
  endpoint: string;
  channelId?: string | undefined;
  otherChannelId?: string | undefined;
  originator?: string | undefined;
  formats?: string | undefined;
  variables?: VariableInput[] | undefined;
}

/** POST /channels: where the channel goes once answered, and how long it may ring. */
export interface OriginateRequest extends NewCallRequest {
  extension?: string | undefined;
  context?: string | undefined;
  priority?: number | undefined;
  label?: string | undefined;
  app?: string | undefined;
  appArgs?: string | undefined;
  callerId?: string | undefined;
  timeout: number;
}

/** The simulation's inbound call: an endpoint calling an extension. */
export interface InboundRequest {
  endpoint: string;
  extension: string;
  context?: string | undefined;
  callerId?: string | undefined;
  channelId?: string | undefined;
  variables?: VariableInput[] | undefined;
}

/** How a channel ends: who asked, and whether a ChannelHangupRequest is raised first. */
export type HangupRequest =
  | { by: 'api'; cause: number } // ARI DELETE: soft hangup request
  | { by: 'far'; cause: number } // the far end (or the other Local half) hung up
  | { by: 'none'; cause: number }; // the dialplan or a failed dial ends it without a request


/** Splits appArgs the way Stasis() receives them. */
export function splitAppArgs(appArgs: string | undefined): string[] {
  return appArgs ? appArgs.split(',') : [];
}

